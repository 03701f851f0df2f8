/* eslint-disable no-console -- the CLI's output goes to the terminal */
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number) => (text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);

export const style = {
  bold: paint(1),
  dim: paint(2),
  red: paint(31),
  green: paint(32),
  yellow: paint(33),
  cyan: paint(36),
};

/** Everything the CLI prints goes through here. */
export const out = {
  line(text = ''): void {
    console.log(text);
  },
  step(text: string): void {
    console.log(`  ${style.green('✔')} ${text}`);
  },
  warn(text: string): void {
    console.error(`${style.yellow('warning:')} ${text}`);
  },
  error(text: string): void {
    console.error(`${style.red('error:')} ${text}`);
  },
};
