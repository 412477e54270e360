import { messageResponse, okResponse } from '../../shared/schemas/common';
import {
  deleteMasternodeInput,
  deleteMasternodeOutput,
  exitValidatorInput,
  simulateDepositInput,
  getMasternodeOutput,
  getMasternodesOutput,
  getProposalsOutput,
  mnQuery,
  nodeLogOutput,
  restartNodeOutput,
  quickSetupInput,
  removedValidatorsOutput,
  slashingProtectionFileOutput,
  registerSubmitInput,
  setAlertsMutedInput,
  updateAliasInput,
  updateValidatorFeeInput,
} from '../../shared/schemas/nodes';
import { getRewardsInput, getRewardsOutput } from '../../shared/schemas/rewards';
import { router, scriptProcedure } from '../rpc/trpc';
import {
  deleteMasternode,
  exitValidator,
  simulateDeposit,
  getProposals,
  quickSetup,
  registerSubmit,
  setAlertsMuted,
  updateAlias,
  updateValidatorFee,
} from './actions';
import { getRewards } from './rewards';
import { getMasternode, getMasternodes } from './service';
import { removedValidators, slashingProtectionFile } from './removed-view';
import { ownNodeLog, restartOwnNode } from './node-maintenance';

export const nodesRouter = router({
  get_masternodes: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_masternodes',
        summary:
          "`{masternodes[], queue[], total_worth, monthly_cost}`: the user's nodes, build-queue items, total worth and monthly hosting cost in USD",
      },
    })
    .output(getMasternodesOutput)
    .query(({ ctx }) => getMasternodes(ctx, ctx.user.id)),
  get_masternode: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_masternode',
        summary: '`{success, data}`: one node; another user\'s node answers 404 "Masternode not found."',
      },
    })
    .input(mnQuery)
    .output(getMasternodeOutput)
    .query(({ ctx, input }) => getMasternode(ctx, ctx.user.id, input.masternode)),
  get_rewards: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_rewards',
        summary:
          "`{rewards[], last_30_days, total, simulated_only}`: the rewards the user's nodes were paid (or one node's, `masternode`), newest first, each with its USD value at the price the platform held when it arrived; simulated nodes earn none",
      },
    })
    .input(getRewardsInput)
    .output(getRewardsOutput)
    .query(({ ctx, input }) => getRewards(ctx, ctx.user.id, input)),
  get_proposals: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_proposals',
        summary: "`{success, data}`: the governance proposals the node's daemon knows (families with governance)",
      },
    })
    .input(mnQuery)
    .output(getProposalsOutput)
    .query(({ ctx, input }) => getProposals(ctx, ctx.user.id, input.masternode)),
  delete_masternode: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/delete_masternode',
        summary:
          "`{success, message, slashing_protection?}`: destroys the node, irreversibly; a validator is stopped first and its EIP-3076 file answered (`reason`: one of the listed reasons or the customer's own words)",
      },
    })
    .input(deleteMasternodeInput)
    .output(deleteMasternodeOutput)
    .mutation(({ ctx, input }) => deleteMasternode(ctx, ctx.user.id, input)),
  update_alias: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/update_alias',
        summary: "`{success}`: sets the node's alias; null or empty removes it",
      },
    })
    .input(updateAliasInput)
    .output(okResponse)
    .mutation(({ ctx, input }) => updateAlias(ctx, ctx.user.id, input)),
  set_alerts_muted: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/mute_node_alerts',
        summary:
          '`{success}`: `muted: true` stops every notification of the node (down/up, network status, action, rewards); false turns them on again',
      },
    })
    .input(setAlertsMutedInput)
    .output(okResponse)
    .mutation(({ ctx, input }) => setAlertsMuted(ctx, ctx.user.id, input)),
  update_validator_fee: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/update_validator_fee',
        summary: "`{success, message}`: sets a validator's fee recipient; a field error answers `error_input`",
      },
    })
    .input(updateValidatorFeeInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => updateValidatorFee(ctx, ctx.user.id, input)),
  register_submit: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/register_submit',
        summary: "`{success, message}`: submits the signed `protx register_prepare` result through the node's daemon",
      },
    })
    .input(registerSubmitInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => registerSubmit(ctx, ctx.user.id, input)),
  quick_setup: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/quick_setup',
        summary: '`{success, message}`: starts a quick-setup node with the text its view asks for',
      },
    })
    .input(quickSetupInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => quickSetup(ctx, ctx.user.id, input)),
  removed_validators: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/removed_validators',
        summary:
          "`{success, data[]}`: the user's destroyed validators whose EIP-3076 slashing-protection files are kept (30 days after the destroy)",
      },
    })
    .output(removedValidatorsOutput)
    .query(({ ctx }) => removedValidators(ctx, ctx.user.id)),
  slashing_protection_file: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/slashing_protection_file',
        summary:
          "`{success, file_name, json}`: a destroyed validator's EIP-3076 interchange file (format version 5); another user's or an expired one answers 404",
      },
    })
    .input(mnQuery)
    .output(slashingProtectionFileOutput)
    .query(({ ctx, input }) => slashingProtectionFile(ctx, ctx.user.id, input.masternode)),
  exit_validator: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/exit_validator',
        summary:
          "`{success, message}`: an active validator's voluntary exit, signed by its validator client (Keymanager API) and published by its beacon node; irreversible (`confirm: true`)",
      },
    })
    .input(exitValidatorInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => exitValidator(ctx, ctx.user.id, input)),
  simulate_deposit: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/simulate_deposit',
        summary:
          "`{success, message}`: demo only: a simulated validator's deposit, seen by its simulated beacon chain (any other node answers 400)",
      },
    })
    .input(simulateDepositInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => simulateDeposit(ctx, ctx.user.id, input)),
  get_node_log: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_node_log',
        summary:
          "`{success, lines[]}`: the last 100 lines of the node's daemon log, its RPC password, keys and any other secret replaced by `[hidden]`",
      },
    })
    .input(mnQuery)
    .output(nodeLogOutput)
    .query(({ ctx, input }) => ownNodeLog(ctx, ctx.user.id, input.masternode)),
  restart_node: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/restart_node',
        summary:
          "`{success, message}`: restarts the node's daemon, at most once per 10 minutes per node; sooner answers 429 with when it can be asked again",
      },
    })
    .input(mnQuery)
    .output(restartNodeOutput)
    .mutation(({ ctx, input }) => restartOwnNode(ctx, ctx.user.id, input.masternode)),
});
