import { hostOf } from './network-destination.js';

/**
 * Text that reads differently from what runs: a person approving a command sees one thing, the shell or the
 * network another. Characters that change the order text is shown in (bidirectional overrides and isolates,
 * the Trojan Source trick), characters that show nothing inside a word or address (zero-width space, word
 * joiner, a byte-order mark), terminal control bytes (an escape sequence can recolour, move or erase what is
 * shown), and a host name whose letters mix scripts (`gіthub.com` with a Cyrillic `і` is another site).
 */

/** Bidirectional embeddings, overrides and isolates; the plain marks (U+200E, U+200F) of right-to-left text are not among them. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
/** An invisible character between two visible characters of a word, path or address (an emoji sequence's joiner sits between emoji). */
const INVISIBLE_IN_WORD = /[\w./:@-][\u200B-\u200D\u2060\uFEFF]+[\w./:@-]/;
/**
 * Control bytes that change what a terminal shows: ESC and CSI start sequences that recolour, move or erase,
 * backspace overwrites, vertical tab and form feed move the cursor, shift-out and shift-in swap the character set.
 * The others (NUL, BEL, DEL …) are ignored or only beep: text holding one reads as it runs (`if '\0' in line`).
 */
const CONTROL_BYTE = /[\u0008\u000B\u000C\u000E\u000F\u001B\u009B]/;

/** Latin letters (with their accented forms) and the scripts whose letters look like them. */
const LATIN = /[a-z\u00C0-\u024F]/i;
const LOOKALIKE_SCRIPTS = /[\u0370-\u03FF\u0400-\u04FF\u0500-\u052F\u13A0-\u13FF\uFF21-\uFF5A]/;

export interface DeceptiveText {
  /** What it does, for the reason. */
  what: string;
  /** The offending part, with the hidden characters written out (`\u202E`). */
  shown: string;
}

/** Hidden characters written out as escapes, so that a reason shows what the text holds. */
function revealed(text: string): string {
  return text.replace(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060\uFEFF\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u009B]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** A label of a host name whose letters are partly Latin and partly of a script that imitates Latin. */
function mixedScriptHost(host: string): boolean {
  return host.split('.').some((label) => LATIN.test(label) && LOOKALIKE_SCRIPTS.test(label));
}

/** The first deception in a command line or in the URLs an action requests, or undefined. */
export function deceptiveText(command: string | undefined, urls: readonly string[]): DeceptiveText | undefined {
  if (command !== undefined) {
    // Nearly every command is plain printable ASCII: nothing to look for.
    if (/[^\u0020-\u007E\t\n\r]/.test(command)) {
      const around = (at: number) => revealed(command.slice(Math.max(0, at - 20), at + 20)).trim();
      const bidi = BIDI_CONTROL.exec(command);
      if (bidi) return { what: 'holds characters that change the order its text is shown in, so what is read is not what runs', shown: around(bidi.index) };
      const invisible = INVISIBLE_IN_WORD.exec(command);
      if (invisible) return { what: 'hides invisible characters inside a word or an address', shown: around(invisible.index) };
      const control = CONTROL_BYTE.exec(command);
      if (control) return { what: 'holds terminal control characters that can change or hide what is shown', shown: around(control.index) };
    }
  }
  for (const url of urls) {
    const host = hostOf(url);
    if (host && /[^\u0020-\u007E]/.test(host) && mixedScriptHost(host)) return { what: 'requests a host whose name mixes Latin letters with look-alike letters of another script: it imitates another site', shown: host };
  }
  return undefined;
}
