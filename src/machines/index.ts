import { appMachine } from './app.machine.ts';
import { forgotPasswordMachine } from './forgotPassword.machine.ts';
import { loginMachine } from './login.machine.ts';
import { notificationsMachine } from './notifications.machine.ts';
import { unreadNotificationsMachine } from './unreadNotifications.machine.ts';
import { pageMachine } from './page.machine.ts';
import { registerMachine } from './register.machine.ts';
import { profileMachine } from './profile.machine.ts';
import { addressesMachine } from './addresses.machine.ts';
import { profilePictureMachine } from './profilePicture.machine.ts';
import { settingsMachine } from './settings.machine.ts';
import { socialSignInMachine } from './socialSignIn.machine.ts';
import { resetPasswordMachine } from './resetPassword.machine.ts';
import { verifyEmailMachine } from './verifyEmail.machine.ts';
import { walletsMachine } from './wallets.machine.ts';
import { depositMachine } from './deposit.machine.ts';
import { withdrawMachine } from './withdraw.machine.ts';
import { referralMachine } from './referral.machine.ts';
import { transactionsMachine } from './transactions.machine.ts';
import { gameListMachine } from './gameList.machine.ts';
import { lobbyMachine } from './lobby.machine.ts';
import { gameRowMachine } from './gameRow.machine.ts';
import { favouriteMachine } from './favourite.machine.ts';
import { launchMachine } from './launch.machine.ts';
import { betHistoryMachine } from './betHistory.machine.ts';
import { fairnessMachine } from './fairness.machine.ts';
import { houseTableMachine } from './houseTable.machine.ts';
import { minesMachine } from './mines.machine.ts';
import { houseSeedsMachine } from './houseSeeds.machine.ts';
import { bonusesMachine } from './bonuses.machine.ts';
import { bonusClaimMachine } from './bonusClaim.machine.ts';
import { bonusForfeitMachine } from './bonusForfeit.machine.ts';
import { limitsMachine } from './limits.machine.ts';
import { selfExclusionMachine } from './selfExclusion.machine.ts';
import { sessionLimitMachine } from './sessionLimit.machine.ts';
import { realityCheckMachine } from './realityCheck.machine.ts';
import { documentsMachine } from './documents.machine.ts';
import { changePasswordMachine } from './changePassword.machine.ts';
import { resendVerificationMachine } from './resendVerification.machine.ts';

/** Every flow's machine by name, for the model-based tests and the flow charts. */
export const machines = {
  app: appMachine,
  login: loginMachine,
  register: registerMachine,
  profile: profileMachine,
  addresses: addressesMachine,
  profilePicture: profilePictureMachine,
  verifyEmail: verifyEmailMachine,
  forgotPassword: forgotPasswordMachine,
  resetPassword: resetPasswordMachine,
  page: pageMachine,
  settings: settingsMachine,
  socialSignIn: socialSignInMachine,
  notifications: notificationsMachine,
  unreadNotifications: unreadNotificationsMachine,
  wallets: walletsMachine,
  deposit: depositMachine,
  withdraw: withdrawMachine,
  referral: referralMachine,
  transactions: transactionsMachine,
  lobby: lobbyMachine,
  gameRow: gameRowMachine,
  gameList: gameListMachine,
  favourite: favouriteMachine,
  launch: launchMachine,
  betHistory: betHistoryMachine,
  fairness: fairnessMachine,
  bonuses: bonusesMachine,
  bonusClaim: bonusClaimMachine,
  bonusForfeit: bonusForfeitMachine,
  limits: limitsMachine,
  selfExclusion: selfExclusionMachine,
  sessionLimit: sessionLimitMachine,
  realityCheck: realityCheckMachine,
  documents: documentsMachine,
  changePassword: changePasswordMachine,
  resendVerification: resendVerificationMachine,
  // The house games' pages (src/views/house, their own composition root: src/views/house/wiring.ts).
  houseTable: houseTableMachine,
  mines: minesMachine,
  houseSeeds: houseSeedsMachine,
} as const;

export type MachineName = keyof typeof machines;
