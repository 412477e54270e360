import { checkBurnInput, checkBurnOutput, coinQuery, deployServerInput, deployServerOutput, deployValidatorsInput, deployValidatorsOutput, getBuildingServersOutput, getDeployInfoOutput } from '../../shared/schemas/deploy';
import { MAX_KEYSTORE_BYTES, MAX_KEYSTORES } from '../../shared/validator-upload';
import { router, scriptProcedure } from '../rpc/trpc';
import { checkBurn, deployServer, deployValidators, getBuildingServers, getDeployInfo } from './service';

export const deployRouter = router({
  get_deploy_info: scriptProcedure
    .meta({ rest: { method: 'GET', path: '/api/get_deploy_info', summary: '`{success, data}`: the coin as the deploy page needs it (prices per plan, cloud, campaign, maintenance, flags)' } })
    .input(coinQuery)
    .output(getDeployInfoOutput)
    .query(({ ctx, input }) => getDeployInfo(ctx, input.coin)),
  deploy_server: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/deploy_server',
        summary: '`{success, message, server_id, server_ids}`: deploys a node (Satori: `neuronCount` nodes). Validators send multipart/form-data instead (see deploy_validators). A field error answers `error_input` naming the field; a field the coin\'s family does not send is refused by name',
      },
    })
    .input(deployServerInput)
    .output(deployServerOutput)
    .mutation(({ ctx, input }) => deployServer(ctx, ctx.user, input)),
  deploy_validators: scriptProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/deploy_server',
        multipart: true,
        summary: `multipart/form-data \`currency, package, password, fee_recipient, keystores\` (one part per EIP-2335 file, at most ${MAX_KEYSTORES} of ${MAX_KEYSTORE_BYTES / 1024} KiB): \`{success, message, server_id, data}\` with a \`{success, message}\` per file`,
      },
    })
    .input(deployValidatorsInput)
    .output(deployValidatorsOutput)
    .mutation(({ ctx, input, signal }) => deployValidators(ctx, ctx.user, input, signal)),
  check_burn: scriptProcedure
    .meta({ rest: { method: 'POST', path: '/api/check_burn', summary: "`{success, message, output_id}`: looks the burn transaction up on the coin's daemon" } })
    .input(checkBurnInput)
    .output(checkBurnOutput)
    .mutation(({ ctx, input }) => checkBurn(ctx, input)),
  get_building_servers: scriptProcedure
    .meta({ rest: { method: 'GET', path: '/api/get_building_servers', summary: '`{success, data}`: the build-queue items (name, currency, status, activated, link, reason)' } })
    .output(getBuildingServersOutput)
    .query(({ ctx }) => getBuildingServers(ctx, ctx.user.id)),
});
