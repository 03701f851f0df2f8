import { networkShellRule } from './shell-integrity-rules.js';
import { bashContext as bash } from './rule-context.fixture.js';

describe('network_shell', () => {
  it.each([
    'docker run -d --name secure-terminal -p 8090:7681 tsl0922/ttyd:latest ttyd --writable -p 7681 bash',
    'ttyd -p 8080 -W bash',
    'nohup gotty -w bash &',
    'docker run -d -p 3000:3000 wettyoss/wetty --ssh-host=localhost',
  ])('asks before %s', (command) => {
    expect(networkShellRule.evaluate(bash(command))).toMatchObject({ verdict: 'require_approval', factors: ['remote_execution', 'network_request'] });
  });

  it.each(['ttyd -i lo -p 7681 bash', 'docker run -d -p 127.0.0.1:7681:7681 tsl0922/ttyd bash', 'docker run --rm tsl0922/ttyd:latest ttyd --help', 'docker run -d -p 8080:80 nginx', 'npm run dev'])(
    'lets %s through',
    (command) => {
      expect(networkShellRule.evaluate(bash(command))).toBeNull();
    },
  );
});
