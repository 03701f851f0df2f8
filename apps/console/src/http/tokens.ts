import type { ConsoleConfig } from '../config.js';

/** Injection tokens of the console's providers that are not classes. */
export const CONSOLE_CONFIG = Symbol('warden.console.config');

/** The login cookie: HttpOnly, SameSite=Strict, Path=/, for the lifetime of the login. */
export const SESSION_COOKIE = 'warden_session';

export type { ConsoleConfig };
