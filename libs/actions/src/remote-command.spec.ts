import { remoteCommand, remoteShellText } from './remote-command.js';

const words = (line: string) => line.match(/"[^"]*"|'[^']*'|\S+/g)!.map((w) => w.replace(/^["']|["']$/g, ''));

describe('remoteCommand', () => {
  it.each([
    ['ssh root@router "rm /etc/init.d/x"', 'root@router', 'ssh', 'rm /etc/init.d/x'],
    ['ssh -p 2222 -i key user@host sudo reboot', 'user@host', 'ssh', 'sudo reboot'],
    ['docker exec -it -u root web rm -rf /app/tmp', 'web', 'container', 'rm -rf /app/tmp'],
    ['docker container exec db psql -c "drop table x"', 'db', 'container', "psql -c 'drop table x'"],
    ['podman exec ctr sh -c "rm -rf /etc"', 'ctr', 'container', "sh -c 'rm -rf /etc'"],
    ['docker compose -f dev.yml exec -T web rm -rf /app/tmp', 'web', 'container', 'rm -rf /app/tmp'],
    ['docker-compose exec web reboot', 'web', 'container', 'reboot'],
    ['kubectl exec -n prod -it api-7d9f -c app -- rm -rf /data', 'api-7d9f', 'pod', 'rm -rf /data'],
    ['kubectl -n prod exec api -- cat /etc/hosts', 'api', 'pod', 'cat /etc/hosts'],
    ['oc exec api ls /', 'api', 'pod', 'ls /'],
    ['lxc exec box -- apt-get remove nginx', 'box', 'container', 'apt-get remove nginx'],
  ])('reads %s as a command on that host', (line, host, kind, text) => {
    const remote = remoteCommand(words(line))!;
    expect(remote).toMatchObject({ host, kind });
    expect(remoteShellText(remote)).toBe(text);
  });

  it.each(['ssh host', 'ssh -p 22 host', 'docker ps', 'docker run img ls', 'docker compose up -d', 'kubectl get pods', 'kubectl exec pod', 'git status'])('finds no remote command in %s', (line) => {
    expect(remoteCommand(words(line))).toBeUndefined();
  });
});
