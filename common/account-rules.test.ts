import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  accountMessages,
  COMMON_PASSWORD_PATTERNS,
  PASSWORD_STRENGTH_LABELS,
  passwordStrength,
  passwordSuggestions,
  RESTRICTED_USERNAME_WORDS,
  restrictedWordIn,
  validateEmail,
  validatePasswordChange,
  validatePasswordConfirmation,
  validatePasswordReset,
  validateRegistration,
  validateRegistrationPassword,
  validateResetRequest,
  validateUsername,
} from './account-rules.ts';

/** A syntactically valid address of exactly `length` characters. */
const emailOfLength = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;
const valid = { username: 'calm_shopper', email: 'shopper@example.com', password: 'Zx9!kq', confirmPassword: 'Zx9!kq' };

describe('messages', () => {
  test('are the spec wording, exactly', () => {
    expect(accountMessages).toEqual({
      emailRequired: 'Email is required',
      emailInvalid: 'Please enter a valid email address',
      emailTooLong: 'Email address is too long',
      usernameRequired: 'Username is required',
      usernameTooShort: 'Username must be at least 3 characters',
      usernameTooLong: 'Username must be less than 30 characters',
      usernameCharacters: 'Username can only contain letters, numbers, hyphens and underscores',
      usernameRestricted: 'Username contains restricted words',
      passwordTooShort: 'Password must be at least 6 characters',
      passwordTooWeakPrefix: 'Password is too weak: ',
      passwordsDoNotMatch: 'Passwords do not match',
      currentPasswordRequired: 'Current password is required',
      newPasswordsDoNotMatch: 'New passwords do not match',
      newPasswordTooShort: 'New password must be at least 6 characters long',
      resetFieldsRequired: 'Both password fields are required',
      resetPasswordTooShort: 'Password must be at least 8 characters long',
      resetLinkInvalid: 'Invalid reset link',
      resetWrongAccount:
        'This password reset link belongs to a different account. Please sign out first or use the correct account.',
    });
    expect(passwordSuggestions).toEqual({
      length: 'Use at least 6 characters',
      lowercase: 'Add lowercase letters',
      uppercase: 'Add uppercase letters',
      numbers: 'Add numbers',
      special: 'Add special characters',
      commonPattern: 'Avoid common patterns like 123456, abc, password or qwerty',
      repeat: 'Avoid repeating a character 3 or more times',
    });
    expect(RESTRICTED_USERNAME_WORDS).toEqual([
      'admin',
      'administrator',
      'root',
      'system',
      'test',
      'demo',
      'temp',
      'temporary',
    ]);
    expect(COMMON_PASSWORD_PATTERNS).toEqual(['123456', 'abc', 'password', 'qwerty']);
  });
});

describe('email', () => {
  test('is required; blank counts as missing', () => {
    for (const blank of ['', ' ', '\t\n ', '\u00a0']) expect(validateEmail(blank)).toBe('Email is required');
  });

  test('accepts ordinary addresses, trimmed', () => {
    for (const ok of [
      'shopper@example.com',
      '  shopper@example.com\t',
      'First.Last+tag@mail.example.co.uk',
      "o'brien@example.ie",
      'x@y.io',
      'user_1-2@sub-domain.example.ORG',
    ]) {
      expect(validateEmail(ok), ok).toBeNull();
    }
  });

  test('rejects what is not local@domain.tld', () => {
    for (const bad of [
      'shopper',
      'shopper@',
      '@example.com',
      'shopper@example',
      'shopper@example.c',
      'shopper@example.c0m',
      'shopper@example.123',
      'shopper@example.com.',
      'shopper@.example.com',
      'shopper@example..com',
      'shop per@example.com',
      'shopper@exam ple.com',
      'shopper@@example.com',
      'a@b@example.com',
      'shopper\u0000@example.com',
      'shopper@example.com\u0007',
      'shopper@example.com,other@example.com',
      // Address syntax a mailer would read as another recipient than the text stored.
      'foo<victim@example.com>.zz',
      'a,b@example.com',
      'a;b@example.com',
      '"a b"@example.com',
      'a(comment)@example.com',
      'a@[127.0.0.1]',
      'a\\b@example.com',
      'a:b@example.com',
      'a@exa<mple.com',
    ]) {
      expect(validateEmail(bad), JSON.stringify(bad)).toBe('Please enter a valid email address');
    }
  });

  test('at most 254 characters, counted after trimming', () => {
    expect(emailOfLength(254)).toHaveLength(254);
    expect(validateEmail(emailOfLength(254))).toBeNull();
    expect(validateEmail(`   ${emailOfLength(254)}   `)).toBeNull();
    expect(validateEmail(emailOfLength(255))).toBe('Email address is too long');
    expect(validateEmail(emailOfLength(5000))).toBe('Email address is too long');
  });

  test('the pattern is checked before the length, as the spec lists them', () => {
    expect(validateEmail('a'.repeat(300))).toBe('Please enter a valid email address');
  });

  test('a hostile long input is answered, not hung on', () => {
    const started = performance.now();
    expect(validateEmail(`a@${'b.'.repeat(50_000)}1`)).toBe('Please enter a valid email address');
    expect(validateEmail(`${'a@'.repeat(50_000)}`)).toBe('Please enter a valid email address');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('username', () => {
  test('is required; blank counts as missing', () => {
    for (const blank of ['', '   ', '\t']) expect(validateUsername(blank)).toBe('Username is required');
  });

  test('3 to 30 characters, counted after trimming', () => {
    expect(validateUsername('ab')).toBe('Username must be at least 3 characters');
    expect(validateUsername('abc')).toBeNull();
    expect(validateUsername('a'.repeat(30))).toBeNull();
    expect(validateUsername('a'.repeat(31))).toBe('Username must be less than 30 characters');
    expect(validateUsername('  ab  ')).toBe('Username must be at least 3 characters');
    expect(validateUsername('  abc  ')).toBeNull();
    expect(validateUsername(` ${'a'.repeat(30)} `)).toBeNull();
  });

  test('letters, digits, hyphens and underscores only', () => {
    for (const ok of ['john_doe-99', 'ABC', '___', '-a-', '123', 'Calm-Shopper_2025']) {
      expect(validateUsername(ok), ok).toBeNull();
    }
    for (const bad of ['john doe', 'john.doe', 'john@doe', 'ab!', 'a/b/c', 'na\u200bme', 'user😀', 'tab\there']) {
      expect(validateUsername(bad), JSON.stringify(bad)).toBe(
        'Username can only contain letters, numbers, hyphens and underscores',
      );
    }
  });

  // Decision: only ASCII letters. Unicode letters (and look-alikes such as Cyrillic 'а') are refused;
  // they are still counted as one character each for the length check, which comes first.
  test('unicode letters are not allowed', () => {
    for (const bad of ['José', 'Иван', 'ñandú', 'müller', 'аdmin', '山田太郎']) {
      expect(validateUsername(bad), bad).toBe('Username can only contain letters, numbers, hyphens and underscores');
    }
    expect(validateUsername('éé')).toBe('Username must be at least 3 characters');
    expect(validateUsername('😀😀😀')).toBe('Username can only contain letters, numbers, hyphens and underscores');
  });

  test('each restricted word is refused in any case and at any position', () => {
    for (const word of RESTRICTED_USERNAME_WORDS) {
      const capitalised = `${word[0]?.toUpperCase()}${word.slice(1)}`;
      for (const name of [word, word.toUpperCase(), capitalised, `my${capitalised}Shop`, `x_${word}`, `${word}-99`]) {
        expect(validateUsername(name), name).toBe('Username contains restricted words');
        expect(restrictedWordIn(name), name).not.toBeNull();
      }
    }
    expect(validateUsername('sYsTeM')).toBe('Username contains restricted words');
    expect(validateUsername('  root  ')).toBe('Username contains restricted words');
  });

  // The spec says "anywhere", so words that merely contain a restricted word are refused too.
  test('restricted words inside longer words still count', () => {
    for (const name of ['contestant', 'attempt', 'groot', 'demolition', 'ecosystem', 'latest']) {
      expect(validateUsername(name), name).toBe('Username contains restricted words');
    }
    expect(restrictedWordIn('calm_shopper')).toBeNull();
    expect(restrictedWordIn('TeMpOrArY')).toBe('temp');
  });

  test('checks come in the spec order: required, length, characters, restricted words', () => {
    expect(validateUsername('a!')).toBe('Username must be at least 3 characters');
    expect(validateUsername(`admin ${'x'.repeat(30)}`)).toBe('Username must be less than 30 characters');
    expect(validateUsername('admin user')).toBe('Username can only contain letters, numbers, hyphens and underscores');
  });
});

describe('password strength', () => {
  // The ladder, one change at a time:
  //   ''           -> 0 Very Weak (empty)
  //   'sunshine'   -> 1 Weak      (1 class, 8+ chars: 0 + 1)
  //   'sunshine7'  -> 2 Fair      (2 classes: 1 + 1)
  //   'Sunshine7'  -> 3 Good      (3 classes: 2 + 1)
  //   'Sunshine7!' -> 4 Strong    (4 classes: 3 + 1, no suggestion left)
  test('a ladder of passwords climbs one label at a time', () => {
    const ladder = ['', 'sunshine', 'sunshine7', 'Sunshine7', 'Sunshine7!'].map((password) => {
      const { score, label } = passwordStrength(password);
      return [password, score, label];
    });
    expect(ladder).toEqual([
      ['', 0, 'Very Weak'],
      ['sunshine', 1, 'Weak'],
      ['sunshine7', 2, 'Fair'],
      ['Sunshine7', 3, 'Good'],
      ['Sunshine7!', 4, 'Strong'],
    ]);
  });

  test('length bonuses, penalties and caps', () => {
    const scoreOf = (password: string) => passwordStrength(password).score;
    expect(scoreOf('Tr4ck!ng-Stillw8ter')).toBe(4);
    expect(scoreOf('Sun7!x')).toBe(3); // all classes but only 6 characters: Good
    expect(scoreOf('Ab1!x')).toBe(1); // all classes but under 6 characters: capped at Weak
    expect(scoreOf('a')).toBe(0);
    expect(scoreOf('correcthorsebatterystaple')).toBe(2); // 1 class + 8 + 12 bonuses
    expect(scoreOf('Correcthorsebatterystaple7')).toBe(3); // would be 4, but no special character: capped at Good
    expect(scoreOf('Aa1!aaaa')).toBe(3); // 4 - 1 for the repeat
    expect(scoreOf('Aa1!aaaaBbbb2')).toBe(3); // even long, a repeat keeps it below Strong
    expect(scoreOf('Password1!')).toBe(2); // 4 - 2 for the common pattern
    expect(scoreOf('password')).toBe(0);
    expect(scoreOf('aaaaaaaaaaaaaaaa')).toBe(1); // 0 + 2 - 1
    expect(scoreOf('qwerty123456')).toBe(1); // 1 + 2 - 2
  });

  test('an empty password needs everything', () => {
    expect(passwordStrength('')).toEqual({
      score: 0,
      label: 'Very Weak',
      suggestions: [
        'Use at least 6 characters',
        'Add lowercase letters',
        'Add uppercase letters',
        'Add numbers',
        'Add special characters',
      ],
    });
  });

  test('each missing character class is suggested on its own', () => {
    expect(passwordStrength('XYZ789!@').suggestions).toEqual(['Add lowercase letters']);
    expect(passwordStrength('xyz789!@').suggestions).toEqual(['Add uppercase letters']);
    expect(passwordStrength('Xyzuvw!@').suggestions).toEqual(['Add numbers']);
    expect(passwordStrength('Xyz789uv').suggestions).toEqual(['Add special characters']);
    expect(passwordStrength('Zx9!k').suggestions).toEqual(['Use at least 6 characters']);
    expect(passwordStrength('Zx9!kq').suggestions).toEqual([]);
  });

  test('spaces and symbols count as special characters; unicode letters keep their case', () => {
    expect(passwordStrength('Xyz 789u').suggestions).toEqual([]);
    expect(passwordStrength('Xyz€789u').suggestions).toEqual([]);
    expect(passwordStrength('Éété789!').suggestions).toEqual([]);
    expect(passwordStrength('ÉTÉ789!X').suggestions).toEqual(['Add lowercase letters']);
  });

  test('each common pattern is caught in any case and at any position', () => {
    const common = 'Avoid common patterns like 123456, abc, password or qwerty';
    for (const pattern of COMMON_PASSWORD_PATTERNS) {
      for (const variant of [pattern, pattern.toUpperCase(), `${pattern[0]?.toUpperCase()}${pattern.slice(1)}`]) {
        for (const password of [`${variant}Zx9!`, `Zx${variant}9!`, `Zx9!${variant}`]) {
          const { suggestions } = passwordStrength(password);
          expect(suggestions, password).toContain(common);
        }
      }
    }
    expect(passwordStrength('Zx9!ABCde').suggestions).toEqual([common]);
    expect(passwordStrength('Zx9!QwErTy').suggestions).toEqual([common]);
    expect(passwordStrength('Zx!k123456').suggestions).toEqual([common]);
    expect(passwordStrength('Zx9!PassWord').suggestions).toEqual([common]);
    expect(passwordStrength('Zx9!ab-c12345').suggestions).toEqual([]); // broken-up sequences are fine
  });

  test('a character repeated 3 or more times in a row is caught', () => {
    const repeat = 'Avoid repeating a character 3 or more times';
    for (const password of ['Zx9!ooo', 'Zx9!!!k', 'Zx9111!k', 'ZZZx9!k', 'Zx9!k😀😀😀', 'Zx9!kkkkkk', 'Zx9!   k']) {
      expect(passwordStrength(password).suggestions, password).toEqual([repeat]);
    }
    for (const password of ['Zx9!oo', 'Zx9!oAo', 'Zx9!aAa', 'Zx9!ozoo']) {
      expect(passwordStrength(password).suggestions, password).toEqual([]);
    }
  });

  test('suggestions come in a fixed order', () => {
    expect(passwordStrength('aaa').suggestions).toEqual([
      'Use at least 6 characters',
      'Add uppercase letters',
      'Add numbers',
      'Add special characters',
      'Avoid repeating a character 3 or more times',
    ]);
    expect(passwordStrength('passwordddd').suggestions).toEqual([
      'Add uppercase letters',
      'Add numbers',
      'Add special characters',
      'Avoid common patterns like 123456, abc, password or qwerty',
      'Avoid repeating a character 3 or more times',
    ]);
  });
});

describe('registration password', () => {
  test('at least 6 characters, boundary 5/6', () => {
    expect(validateRegistrationPassword('')).toBe('Password must be at least 6 characters');
    expect(validateRegistrationPassword('Zx9!k')).toBe('Password must be at least 6 characters');
    expect(validateRegistrationPassword('Zx9!kq')).toBeNull();
  });

  test('characters are code points and passwords are not trimmed', () => {
    expect(validateRegistrationPassword('Zx9!😀')).toBe('Password must be at least 6 characters');
    expect(validateRegistrationPassword('Zx9!😀k')).toBeNull();
    expect(validateRegistrationPassword('     ')).toBe('Password must be at least 6 characters');
    expect(validateRegistrationPassword(' Zx9k ')).toBeNull(); // the spaces are its special characters
  });

  test('too weak names the first remaining suggestion', () => {
    expect(validateRegistrationPassword('abcdefgh')).toBe('Password is too weak: Add uppercase letters');
    expect(validateRegistrationPassword('ZXCVBN')).toBe('Password is too weak: Add lowercase letters');
    expect(validateRegistrationPassword('Zxcvbn')).toBe('Password is too weak: Add numbers');
    expect(validateRegistrationPassword('Zxcvb9')).toBe('Password is too weak: Add special characters');
    expect(validateRegistrationPassword('Password1!')).toBe(
      'Password is too weak: Avoid common patterns like 123456, abc, password or qwerty',
    );
    expect(validateRegistrationPassword('Zx9!ooo')).toBe(
      'Password is too weak: Avoid repeating a character 3 or more times',
    );
  });

  test('confirmation must match exactly', () => {
    expect(validatePasswordConfirmation('Zx9!kq', 'Zx9!kq')).toBeNull();
    expect(validatePasswordConfirmation('', '')).toBeNull();
    expect(validatePasswordConfirmation('Zx9!kq', 'zx9!kq')).toBe('Passwords do not match');
    expect(validatePasswordConfirmation('Zx9!kq', 'Zx9!kq ')).toBe('Passwords do not match');
    expect(validatePasswordConfirmation('Zx9!kq', '')).toBe('Passwords do not match');
  });
});

describe('registration', () => {
  test('a valid form has no errors and may be submitted', () => {
    expect(validateRegistration(valid)).toEqual({});
    expect(validateRegistration({ ...valid, username: '  calm_shopper ', email: ' shopper@example.com ' })).toEqual({});
  });

  test('every field error is reported at once', () => {
    expect(validateRegistration({ username: '', email: '', password: '', confirmPassword: 'x' })).toEqual({
      username: 'Username is required',
      email: 'Email is required',
      password: 'Password must be at least 6 characters',
      confirmPassword: 'Passwords do not match',
    });
    expect(
      validateRegistration({ username: 'admin', email: 'nope', password: 'password', confirmPassword: 'password' }),
    ).toEqual({
      username: 'Username contains restricted words',
      email: 'Please enter a valid email address',
      password: 'Password is too weak: Add uppercase letters',
    });
  });

  test('a single bad field blocks submission', () => {
    expect(validateRegistration({ ...valid, username: 'ab' })).toEqual({
      username: 'Username must be at least 3 characters',
    });
    expect(validateRegistration({ ...valid, email: emailOfLength(255) })).toEqual({
      email: 'Email address is too long',
    });
    expect(validateRegistration({ ...valid, password: 'Zx9!kqq', confirmPassword: 'Zx9!kqq' })).toEqual({});
    expect(validateRegistration({ ...valid, confirmPassword: 'Zx9!kQ' })).toEqual({
      confirmPassword: 'Passwords do not match',
    });
  });
});

describe('password change', () => {
  const change = { currentPassword: 'old-secret', newPassword: 'abcdef', confirmPassword: 'abcdef' };

  test('a matching new password of 6+ characters is accepted (no strength rule here)', () => {
    expect(validatePasswordChange(change)).toBeNull();
  });

  test('the current password is required, first', () => {
    expect(validatePasswordChange({ ...change, currentPassword: '' })).toBe('Current password is required');
    expect(validatePasswordChange({ currentPassword: '', newPassword: 'a', confirmPassword: 'b' })).toBe(
      'Current password is required',
    );
  });

  test('the new passwords must match, checked before the length', () => {
    expect(validatePasswordChange({ ...change, confirmPassword: 'abcdeF' })).toBe('New passwords do not match');
    expect(validatePasswordChange({ ...change, newPassword: 'abc', confirmPassword: 'xyz' })).toBe(
      'New passwords do not match',
    );
  });

  test('the new password has at least 6 characters, boundary 5/6', () => {
    expect(validatePasswordChange({ ...change, newPassword: 'abcde', confirmPassword: 'abcde' })).toBe(
      'New password must be at least 6 characters long',
    );
    expect(validatePasswordChange({ ...change, newPassword: '', confirmPassword: '' })).toBe(
      'New password must be at least 6 characters long',
    );
  });
});

describe('password reset', () => {
  test('the request needs a valid email', () => {
    expect(validateResetRequest('')).toBe('Email is required');
    expect(validateResetRequest('   ')).toBe('Email is required');
    expect(validateResetRequest('nope')).toBe('Please enter a valid email address');
    expect(validateResetRequest(emailOfLength(255))).toBe('Email address is too long');
    expect(validateResetRequest(' shopper@example.com ')).toBeNull();
  });

  const reset = { token: 'tok_123', password: 'longenough', confirmPassword: 'longenough' };

  test('a token and matching passwords of 8+ characters are accepted', () => {
    expect(validatePasswordReset(reset)).toBeNull();
    expect(validatePasswordReset({ ...reset, password: 'abcdefgh', confirmPassword: 'abcdefgh' })).toBeNull();
  });

  test('no token is an invalid link, whatever else is wrong', () => {
    for (const token of [null, undefined, '', '   ']) {
      expect(validatePasswordReset({ ...reset, token })).toBe('Invalid reset link');
      expect(validatePasswordReset({ token, password: '', confirmPassword: 'x' })).toBe('Invalid reset link');
    }
  });

  test('both fields are required', () => {
    expect(validatePasswordReset({ ...reset, password: '' })).toBe('Both password fields are required');
    expect(validatePasswordReset({ ...reset, confirmPassword: '' })).toBe('Both password fields are required');
    expect(validatePasswordReset({ ...reset, password: '', confirmPassword: '' })).toBe(
      'Both password fields are required',
    );
  });

  test('at least 8 characters, boundary 7/8, checked before the match', () => {
    expect(validatePasswordReset({ ...reset, password: 'abcdefg', confirmPassword: 'abcdefg' })).toBe(
      'Password must be at least 8 characters long',
    );
    expect(validatePasswordReset({ ...reset, password: 'abcdefg', confirmPassword: 'different' })).toBe(
      'Password must be at least 8 characters long',
    );
  });

  test('the passwords must match', () => {
    expect(validatePasswordReset({ ...reset, confirmPassword: 'longenougH' })).toBe('Passwords do not match');
  });

  test('signed in as another account than the token is refused; the same account in any case is fine', () => {
    const wrong =
      'This password reset link belongs to a different account. Please sign out first or use the correct account.';
    expect(validatePasswordReset({ ...reset, signedInEmail: 'a@example.com', tokenEmail: 'b@example.com' })).toBe(
      wrong,
    );
    expect(
      validatePasswordReset({ ...reset, signedInEmail: 'Shopper@Example.com', tokenEmail: ' shopper@example.com' }),
    ).toBeNull();
    expect(validatePasswordReset({ ...reset, signedInEmail: null, tokenEmail: 'b@example.com' })).toBeNull();
    expect(validatePasswordReset({ ...reset, signedInEmail: 'a@example.com', tokenEmail: undefined })).toBeNull();
    expect(validatePasswordReset({ ...reset, signedInEmail: '', tokenEmail: 'b@example.com' })).toBeNull();
    // The field checks come first, as the brief orders them.
    expect(
      validatePasswordReset({
        ...reset,
        password: 'short',
        signedInEmail: 'a@example.com',
        tokenEmail: 'b@example.com',
      }),
    ).toBe('Password must be at least 8 characters long');
  });
});

describe('properties', () => {
  const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-ascii' }));
  const usernames = fc.oneof(anyText, fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/));
  const emails = fc.oneof(anyText, fc.emailAddress(), fc.constant(valid.email));
  const passwords = fc.oneof(
    anyText,
    fc.constantFrom('Zx9!kq', 'Sunshine7!', 'Tr4ck!ng-Stillw8ter', 'Aa1!aaaa', 'Password1!'),
    fc.stringMatching(/^[A-Za-z0-9!?#%&*_ -]{0,16}$/),
  );
  const registrations = passwords.chain((password) =>
    fc.record({
      username: usernames,
      email: emails,
      password: fc.constant(password),
      confirmPassword: fc.oneof(fc.constant(password), passwords),
    }),
  );

  test('registration is error-free exactly when every single-field validator passes', () => {
    fc.assert(
      fc.property(registrations, (input) => {
        const errors = validateRegistration(input);
        const singles = {
          username: validateUsername(input.username),
          email: validateEmail(input.email),
          password: validateRegistrationPassword(input.password),
          confirmPassword: validatePasswordConfirmation(input.password, input.confirmPassword),
        };
        expect(Object.keys(errors).length === 0).toBe(Object.values(singles).every((error) => error === null));
        for (const [field, error] of Object.entries(singles)) {
          expect(errors[field as keyof typeof singles]).toBe(error ?? undefined);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('the strength score is always 0-4 and the label is the one for the score', () => {
    const known = new Set<string>(Object.values(passwordSuggestions));
    fc.assert(
      fc.property(passwords, (password) => {
        const { score, label, suggestions } = passwordStrength(password);
        expect(Number.isInteger(score) && score >= 0 && score <= 4).toBe(true);
        expect(label).toBe(PASSWORD_STRENGTH_LABELS[score]);
        expect(new Set(suggestions).size).toBe(suggestions.length);
        for (const suggestion of suggestions) expect(known.has(suggestion)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test('Strong only for passwords registration accepts; accepted passwords are at least Good', () => {
    fc.assert(
      fc.property(passwords, (password) => {
        const { score, suggestions } = passwordStrength(password);
        const accepted = validateRegistrationPassword(password) === null;
        expect(accepted).toBe([...password].length >= 6 && suggestions.length === 0);
        if (score === 4) expect(accepted).toBe(true);
        if (accepted) expect(score).toBeGreaterThanOrEqual(3);
      }),
      { numRuns: 500 },
    );
  });

  test('an accepted username is 3-30 ASCII word characters with no restricted word; padding never matters', () => {
    fc.assert(
      fc.property(usernames, (username) => {
        expect(validateUsername(` ${username}\t`)).toBe(validateUsername(username));
        if (validateUsername(username) !== null) return;
        const value = username.trim();
        expect(value).toMatch(/^[A-Za-z0-9_-]{3,30}$/);
        expect(RESTRICTED_USERNAME_WORDS.some((word) => value.toLowerCase().includes(word))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  test('an accepted email has one @, no whitespace and at most 254 characters; padding never matters', () => {
    fc.assert(
      fc.property(emails, (email) => {
        expect(validateEmail(`  ${email} `)).toBe(validateEmail(email));
        expect(validateResetRequest(email)).toBe(validateEmail(email));
        if (validateEmail(email) !== null) return;
        const value = email.trim();
        expect(value.split('@')).toHaveLength(2);
        expect(value).not.toMatch(/\s/);
        expect([...value].length).toBeLessThanOrEqual(254);
      }),
      { numRuns: 500 },
    );
  });
});
