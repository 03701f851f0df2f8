import { parseAction } from '../parsing/parsed-action.js';
import { proposeModification } from './action-modifications.js';

const bash = (command: string) => parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, '/work/app');

describe('proposeModification', () => {
  it.each([
    ['sudo npm run build', 'npm run build'],
    ['sudo -u root -- npm test && echo ok', 'npm test && echo ok'],
    ['sudo -E python3 -m pytest -q', 'python3 -m pytest -q'],
  ])('runs a project tool without sudo, as a well-formed command: %s', (command, modified) => {
    expect(proposeModification(bash(command))?.input).toEqual({ command: modified });
  });

  it.each(['sudo git reset --hard', 'sudo -- git reset --hard', 'sudo rm -rf build', 'sudo git push --force origin main', 'sudo systemctl restart nginx'])(
    'never only strips sudo from what stays destructive or needs the rights: %s',
    (command) => {
      expect(proposeModification(bash(command))?.description ?? null).not.toBe('Runs the project tool without sudo.');
    },
  );

  it('previews git clean instead of deleting', () => {
    expect(proposeModification(bash('git clean -fd'))?.input).toEqual({ command: 'git clean -nd' });
  });
});
