/**
 * English, the part every page needs from its first paint: the shell (header, navigation, the lobby) and
 * the session's messages. The rest is in en.screens.ts, loaded with the first lazily loaded screen, dialog
 * or toast; en.ts puts the two together.
 *
 * SPEC quotes (success messages, §6 and §8 error texts) are kept word for word, typos included.
 * Placeholders are rosetta templates, `{{name}}`; every language uses the same ones.
 */
export const enShell = {
  app: {
    name: 'Crypto Casino',
    loading: 'Loading',
    skipToContent: 'Skip to content',
    notFoundTitle: 'Page not found',
    notFoundBody: 'The page you are looking for does not exist or has moved.',
    goHome: 'Go to the lobby',
  },
  nav: {
    lobby: 'Lobby',
    casino: 'Casino',
    liveCasino: 'Live casino',
    sports: 'Sports',
    allGames: 'All games',
    favourites: 'Favourites',
    bonus: 'Bonuses',
    wallet: 'Wallet',
    betHistory: 'Bet history',
    profile: 'Profile',
    responsibleGambling: 'Responsible gambling',
    referAFriend: 'Refer a friend',
    faq: 'FAQ',
    terms: 'Terms',
    privacy: 'Privacy',
    about: 'About',
    support: 'Support',
    fairness: 'Provably fair',
    login: 'Log in',
    register: 'Register',
    logout: 'Log out',
    language: 'Language',
    menu: 'Menu',
    notifications: 'Notifications',
    search: 'Search',
    account: 'Account',
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
    collapse: 'Collapse menu',
    expand: 'Expand menu',
    bets: 'Bets',
    primary: 'Main menu',
    information: 'Information',
    shortcuts: 'Shortcuts',
  },

  /** Buttons and words shared by every screen. */
  common: {
    save: 'Save',
    cancel: 'Cancel',
    close: 'Close',
    retry: 'Retry',
    submit: 'Submit',
    back: 'Back',
    next: 'Next',
    confirm: 'Confirm',
    edit: 'Edit',
    remove: 'Remove',
    add: 'Add',
    upload: 'Upload',
    copy: 'Copy',
    copied: 'Copied!',
    search: 'Search',
    clear: 'Clear',
    loadMore: 'Load more',
    viewAll: 'View all',
    yes: 'Yes',
    no: 'No',
    ok: 'OK',
    optional: 'Optional',
    required: 'Required',
    or: 'or',
    showPassword: 'Show password',
    hidePassword: 'Hide password',
    select: 'Select',
    none: 'None',
    saving: 'Saving…',
    submitting: 'Sending…',
  },

  /** Loading, empty and error states of any list or page. */
  states: {
    loading: 'Loading…',
    empty: 'Nothing here yet.',
    error: 'Something went wrong while loading this page.',
    errorHint: 'Check your connection and try again.',
    offline: 'You are offline.',
    loginRequired: 'Log in to see this page.',
  },

  /** Each language's own name, as shown in the language menu. */
  languages: {
    en: 'English',
    pt: 'Português',
    es: 'Español',
  },

  messages: {
    loginSuccess: 'Login successful!',
    logoutSuccess: 'Logged out successfully!',
    registerSuccess: 'Registered Successfully !',
    profileUpdated: 'Profile Updated Successfully!',
    passwordChanged: 'Password Updated Sucessfully',
    resetLinkSent: 'Password reset link sended successfully.',
    passwordReset: 'Password updated successfully.',
    limitsUpdated: 'Limits Updated Successfully!',
    bonusClaimed: 'Bonus Claimed.',
    referralClaimed: 'Referral Bonus Claimed.',
    bonusForfeited: 'Bonus Forfeited.',
    documentSubmissionSuccess: 'Your documents were submitted for review.',
    documentUploadFailed: 'Failed to upload document',
    pleaseLogin: 'Please login first',
    sessionExpired: 'Session expired. Please login again.',
    inactive: 'User Account Inactivated By Admin',
    emailVerified: 'Your email has been verified.',
    walletSelected: 'Wallet selected.',
    depositCredited: 'Deposit credited to your wallet.',
    withdrawRequested: 'Withdrawal requested. It will be processed shortly.',
    addressAdded: 'Address added.',
    addressUpdated: 'Address updated.',
    addressRemoved: 'Address removed.',
    profileImageUpdated: 'Profile picture updated.',
    profileImageRemoved: 'Profile picture removed.',
    favouriteAdded: 'Added to favourites.',
    favouriteRemoved: 'Removed from favourites.',
    languageChanged: 'Language changed.',
  },


  /**
   * One message per field rule code (src/rules/codes.ts, plus the few the server adds). A code that is
   * also the prefix of other codes ('username' and 'username.length') lives under `invalid`; the map in
   * src/api/errors.ts gives each code its key.
   */
  notifications: {
    title: 'Notifications',
    empty: 'You have no notifications.',
    unread: 'Unread',
    unreadCount: '{{count}} unread',
    /** unreadCount when the count is 1. */
    unreadCountOne: '{{count}} unread',
    /** The header button's accessible name while some are unread. */
    button: 'Notifications ({{count}} unread)',
    buttonOne: 'Notifications ({{count}} unread)',
  },

  /** The top bar's balance pill and its wallet picker. */
  balance: {
    /** The pill's accessible name: what it shows, and what it does. */
    button: 'Balance {{amount}}. Choose a wallet',
    loading: 'Loading your balance',
    unavailable: 'Balance unavailable. Retry',
    menu: 'Your wallets',
    pending: '{{amount}} pending',
    deposit: 'Deposit',
  },

  /** Lobby and every list of games. */
  games: {
    lobbyTitle: 'Lobby',
    lobbyWelcome: 'Welcome to {{site}}',
    casinoTitle: 'Casino',
    liveCasinoTitle: 'Live casino',
    sportsTitle: 'Sports',
    allGamesTitle: 'All games',
    favouritesTitle: 'Favourites',
    searchTitle: 'Search results',
    searchPlaceholder: 'Search games',
    searchResultsFor: 'Results for “{{query}}”',
    searchHint: 'Type at least 3 characters to search.',
    providers: 'Providers',
    allProviders: 'All providers',
    categories: 'Categories',
    allCategories: 'All categories',
    popular: 'Popular games',
    newGames: 'New games',
    play: 'Play',
    playDemo: 'Play demo',
    demo: 'Demo',
    addFavourite: 'Add to favourites',
    removeFavourite: 'Remove from favourites',
    showing: 'Showing {{shown}} of {{total}} games',
    launching: 'Starting the game…',
    loginToPlay: 'Log in to play for real money.',
    exitGame: 'Leave game',
    empty: 'No games found.',
    emptyFavourites: 'No favourite games yet. Tap the heart on a game to add it here.',
    emptySearch: 'No games match “{{query}}”.',
    emptySports: 'Sports betting is coming soon.',
    subCategories: 'Sub-categories',
    allSubCategories: 'All sub-categories',
    viewAll: 'View all',
    scrollBack: 'Scroll back',
    scrollOn: 'Scroll on',
    banners: 'Promotions',
    gameCount: '{{count}} games',
    loadFailed: 'The games could not be loaded.',
  },

} as const;
