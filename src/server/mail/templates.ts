import type { MailMessage } from './outbox';

// Plain text on purpose: every client renders it and links stay copyable.
export function verificationMail(to: string, username: string, link: string): MailMessage {
  return {
    to,
    subject: 'Confirm your Nodekeep email address',
    text: `Hello ${username},\n\nPlease confirm your email address by opening this link:\n\n${link}\n\nIf you did not create a Nodekeep account, you can ignore this mail.\n`,
  };
}

export function resetMail(to: string, username: string, link: string): MailMessage {
  return {
    to,
    subject: 'Reset your Nodekeep password',
    text: `Hello ${username},\n\nSomebody asked to reset the password of your Nodekeep account. To choose a new password, open this link within one hour:\n\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
  };
}

export function accountExistsMail(to: string, username: string, loginLink: string, recoverLink: string): MailMessage {
  return {
    to,
    subject: 'Someone tried to register with your email at Nodekeep',
    text: `Hello ${username},\n\nSomebody just tried to create a new Nodekeep account with this email address, which already belongs to your account "${username}". No new account was made.\n\nIf it was you, log in here:\n\n${loginLink}\n\nIf you forgot your password, you can choose a new one here:\n\n${recoverLink}\n\nIf it was not you, you can ignore this mail.\n`,
  };
}

/** A visitor's chat message waits for this link before it reaches the support team. */
export function visitorConfirmMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Confirm your email to reach Nodekeep support',
    text: `Hello,\n\nWe received your message in the Nodekeep support chat. To pass it on to our team, confirm your email address by opening this link within 24 hours:\n\n${link}\n\nWe answer in the chat and by email. If you did not write to us, ignore this mail: the message will be deleted.\n`,
  };
}
