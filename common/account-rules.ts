import { EMAIL_MAX, REGISTRATION_PASSWORD_MIN, RESET_PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from './constants.ts';

/**
 * Account rules of spec section 5 (storefront): registration, password change and password reset.
 * Shared by the pages and the server's endpoints, so it stays free of dependencies (no zod, no node:*).
 * Every validator returns the first error message in the spec's order, or null when valid.
 * Lengths are counted in code points, so an emoji is one character, not two UTF-16 units.
 */

/** The messages the rules produce, word for word from the spec, for the server and the pages to refer to. */
export const accountMessages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  emailTooLong: 'Email address is too long',
  usernameRequired: 'Username is required',
  usernameTooShort: `Username must be at least ${USERNAME_MIN} characters`,
  usernameTooLong: `Username must be less than ${USERNAME_MAX} characters`,
  usernameCharacters: 'Username can only contain letters, numbers, hyphens and underscores',
  usernameRestricted: 'Username contains restricted words',
  passwordTooShort: `Password must be at least ${REGISTRATION_PASSWORD_MIN} characters`,
  /** Followed by the first remaining strength suggestion, e.g. 'Password is too weak: Add numbers'. */
  passwordTooWeakPrefix: 'Password is too weak: ',
  passwordsDoNotMatch: 'Passwords do not match',
  currentPasswordRequired: 'Current password is required',
  newPasswordsDoNotMatch: 'New passwords do not match',
  newPasswordTooShort: `New password must be at least ${REGISTRATION_PASSWORD_MIN} characters long`,
  resetFieldsRequired: 'Both password fields are required',
  resetPasswordTooShort: `Password must be at least ${RESET_PASSWORD_MIN} characters long`,
  resetLinkInvalid: 'Invalid reset link',
  resetWrongAccount:
    'This password reset link belongs to a different account. Please sign out first or use the correct account.',
} as const;

/** The strength suggestions, in the order passwordStrength lists them. */
export const passwordSuggestions = {
  length: `Use at least ${REGISTRATION_PASSWORD_MIN} characters`,
  lowercase: 'Add lowercase letters',
  uppercase: 'Add uppercase letters',
  numbers: 'Add numbers',
  special: 'Add special characters',
  commonPattern: 'Avoid common patterns like 123456, abc, password or qwerty',
  repeat: 'Avoid repeating a character 3 or more times',
} as const;

/** Words a username may not contain, in any case and at any position (spec section 5). */
export const RESTRICTED_USERNAME_WORDS = [
  'admin',
  'administrator',
  'root',
  'system',
  'test',
  'demo',
  'temp',
  'temporary',
] as const;

/** Sequences that make a password guessable, matched case-insensitively anywhere in it. */
export const COMMON_PASSWORD_PATTERNS = ['123456', 'abc', 'password', 'qwerty'] as const;

/** The strength labels, indexed by score. */
export const PASSWORD_STRENGTH_LABELS = ['Very Weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;

export type PasswordScore = 0 | 1 | 2 | 3 | 4;
export type PasswordLabel = (typeof PASSWORD_STRENGTH_LABELS)[number];
export type PasswordStrength = { score: PasswordScore; label: PasswordLabel; suggestions: string[] };

export type RegistrationInput = { username: string; email: string; password: string; confirmPassword: string };
export type RegistrationErrors = Partial<Record<keyof RegistrationInput, string>>;
export type PasswordChangeInput = { currentPassword: string; newPassword: string; confirmPassword: string };
export type PasswordResetInput = {
  token: string | null | undefined;
  password: string;
  confirmPassword: string;
  /** The email of the signed-in shopper, if any. */
  signedInEmail?: string | null;
  /** The email the reset token was issued for, once known. */
  tokenEmail?: string | null;
};

// local@domain.tld: no whitespace or control characters, one @, dot-separated non-empty domain labels,
// and a TLD of at least two ASCII letters. Labels cannot contain dots, so the match never backtracks badly.
// No address syntax either (< > ( ) [ ] \ , ; : "): a mailer reads `a<victim@x.com>.zz` or `a,b@x.com`
// as other recipients than the text that was stored and checked for uniqueness.
const EMAIL_PATTERN = /^[^\s@\p{Cc}<>()[\]\\,;:"]+@(?:[^\s@.\p{Cc}<>()[\]\\,;:"]+\.)+[A-Za-z]{2,}$/u;
// ASCII only: usernames appear in URLs and mentions, and ASCII avoids look-alike letters (e.g. Cyrillic 'а').
const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;
const REPEATED_CHARACTER = /(.)\1\1/su;

/** The number of characters (code points) in a text. */
function characterCount(text: string): number {
  return [...text].length;
}

/** The email rule: required, an address pattern, at most 254 characters; checked on the trimmed value. */
export function validateEmail(email: string): string | null {
  const value = email.trim();
  if (value === '') return accountMessages.emailRequired;
  if (!EMAIL_PATTERN.test(value)) return accountMessages.emailInvalid;
  if (characterCount(value) > EMAIL_MAX) return accountMessages.emailTooLong;
  return null;
}

/** The restricted word a username contains, if any (case-insensitive, anywhere: 'MyAdminShop' counts). */
export function restrictedWordIn(username: string): string | null {
  const lower = username.toLowerCase();
  return RESTRICTED_USERNAME_WORDS.find((word) => lower.includes(word)) ?? null;
}

/** The username rule: required, 3-30 characters, ASCII letters, digits, '-' and '_', no restricted word. */
export function validateUsername(username: string): string | null {
  const value = username.trim();
  if (value === '') return accountMessages.usernameRequired;
  const length = characterCount(value);
  if (length < USERNAME_MIN) return accountMessages.usernameTooShort;
  // The spec's message says 'less than 30' but its rule is 3-30, so exactly 30 characters is accepted.
  if (length > USERNAME_MAX) return accountMessages.usernameTooLong;
  if (!USERNAME_PATTERN.test(value)) return accountMessages.usernameCharacters;
  if (restrictedWordIn(value) !== null) return accountMessages.usernameRestricted;
  return null;
}

/** Whether a password contains one of the common patterns, in any case. */
function hasCommonPattern(password: string): boolean {
  const lower = password.toLowerCase();
  return COMMON_PASSWORD_PATTERNS.some((pattern) => lower.includes(pattern));
}

/** The character classes a password uses; letters are Unicode-aware, anything not a letter or number is special. */
function characterClasses(password: string): {
  lowercase: boolean;
  uppercase: boolean;
  numbers: boolean;
  special: boolean;
} {
  return {
    lowercase: /\p{Ll}/u.test(password),
    uppercase: /\p{Lu}/u.test(password),
    numbers: /\p{N}/u.test(password),
    special: /[^\p{L}\p{N}]/u.test(password),
  };
}

/** Clamps a raw score to 0-4. */
function clampScore(raw: number): PasswordScore {
  return Math.min(4, Math.max(0, raw)) as PasswordScore;
}

/**
 * The strength of a password: a score 0-4, its label and what would improve it.
 *
 * Suggestions, in this order: at least 6 characters, lowercase, uppercase, numbers, special characters,
 * no common pattern (123456, abc, password, qwerty; any case), no character repeated 3 or more times in a row.
 *
 * Score = (character classes present - 1) + 1 if at least 8 characters + 1 if at least 12 characters
 *         - 2 if a common pattern occurs - 1 if a character repeats 3 or more times in a row,
 * clamped to 0-4; then capped at 1 (Weak) below 6 characters, and at 3 (Good) while any suggestion remains,
 * so 'Strong' is only ever shown for a password registration accepts. The empty password is 0 (Very Weak).
 */
export function passwordStrength(password: string): PasswordStrength {
  const length = characterCount(password);
  const classes = characterClasses(password);
  const commonPattern = hasCommonPattern(password);
  const repeat = REPEATED_CHARACTER.test(password);

  const suggestions: string[] = [];
  if (length < REGISTRATION_PASSWORD_MIN) suggestions.push(passwordSuggestions.length);
  if (!classes.lowercase) suggestions.push(passwordSuggestions.lowercase);
  if (!classes.uppercase) suggestions.push(passwordSuggestions.uppercase);
  if (!classes.numbers) suggestions.push(passwordSuggestions.numbers);
  if (!classes.special) suggestions.push(passwordSuggestions.special);
  if (commonPattern) suggestions.push(passwordSuggestions.commonPattern);
  if (repeat) suggestions.push(passwordSuggestions.repeat);

  const classCount = Object.values(classes).filter(Boolean).length;
  const raw =
    classCount - 1 + (length >= 8 ? 1 : 0) + (length >= 12 ? 1 : 0) - (commonPattern ? 2 : 0) - (repeat ? 1 : 0);
  let score = clampScore(raw);
  if (length < REGISTRATION_PASSWORD_MIN) score = clampScore(Math.min(score, 1));
  if (suggestions.length > 0) score = clampScore(Math.min(score, 3));
  return { score, label: PASSWORD_STRENGTH_LABELS[score], suggestions };
}

/**
 * The registration password rule: at least 6 characters and no strength suggestion left.
 * Too short gives the length message; otherwise the first remaining suggestion is named after
 * 'Password is too weak: '. Passwords are taken as typed, never trimmed.
 */
export function validateRegistrationPassword(password: string): string | null {
  if (characterCount(password) < REGISTRATION_PASSWORD_MIN) return accountMessages.passwordTooShort;
  const [first] = passwordStrength(password).suggestions;
  return first === undefined ? null : `${accountMessages.passwordTooWeakPrefix}${first}`;
}

/** The confirmation must equal the password exactly. */
export function validatePasswordConfirmation(password: string, confirm: string): string | null {
  return password === confirm ? null : accountMessages.passwordsDoNotMatch;
}

/** Every field error of the registration form; an empty object means the form may be submitted. */
export function validateRegistration(input: RegistrationInput): RegistrationErrors {
  const checks: [keyof RegistrationInput, string | null][] = [
    ['username', validateUsername(input.username)],
    ['email', validateEmail(input.email)],
    ['password', validateRegistrationPassword(input.password)],
    ['confirmPassword', validatePasswordConfirmation(input.password, input.confirmPassword)],
  ];
  const errors: RegistrationErrors = {};
  for (const [field, error] of checks) if (error !== null) errors[field] = error;
  return errors;
}

/** The account page's password change: current password given, new passwords match, new one 6+ characters. */
export function validatePasswordChange(input: PasswordChangeInput): string | null {
  if (input.currentPassword === '') return accountMessages.currentPasswordRequired;
  // The spec lists the match check before the length check, so a mismatch is reported first.
  if (input.newPassword !== input.confirmPassword) return accountMessages.newPasswordsDoNotMatch;
  if (characterCount(input.newPassword) < REGISTRATION_PASSWORD_MIN) return accountMessages.newPasswordTooShort;
  return null;
}

/** The password reset request: an email is required and must be a valid address. */
export function validateResetRequest(email: string): string | null {
  if (email.trim() === '') return accountMessages.emailRequired;
  return validateEmail(email);
}

/** Emails compared as addresses: trimmed and case-insensitive. */
function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * The password reset form: a token, both fields, at least 8 characters, matching passwords, and,
 * when someone is signed in and the token's email is known, the same account as the token's.
 */
export function validatePasswordReset(input: PasswordResetInput): string | null {
  if (!input.token?.trim()) return accountMessages.resetLinkInvalid;
  if (input.password === '' || input.confirmPassword === '') return accountMessages.resetFieldsRequired;
  if (characterCount(input.password) < RESET_PASSWORD_MIN) return accountMessages.resetPasswordTooShort;
  if (input.password !== input.confirmPassword) return accountMessages.passwordsDoNotMatch;
  const { signedInEmail, tokenEmail } = input;
  // Only a known mismatch blocks: a signed-out visitor, or a token not yet resolved to an email, may proceed.
  if (signedInEmail?.trim() && tokenEmail?.trim() && !sameEmail(signedInEmail, tokenEmail)) {
    return accountMessages.resetWrongAccount;
  }
  return null;
}
