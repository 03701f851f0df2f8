import { shellWords } from './shell-words.js';
import { isWaitOnly, statusCheckOf } from './status-checks.js';

const check = (command: string) => statusCheckOf(shellWords(command));

describe('status checks: commands that look at a job running elsewhere', () => {
  it('names one CI run however its status is asked, and tells two runs apart', () => {
    const run = check('gh run view 31318147664 --repo acme/app --json status,conclusion --jq \'"\\(.status)/\\(.conclusion)"\'');
    expect(run).toBeDefined();
    expect(check("gh run view 31318147664 --repo acme/app --json jobs --jq '.jobs[] | select(.status!=\"completed\") | .name' 2>&1")).toBe(run);
    expect(check('sleep 30 && gh run view 31318147664 --repo acme/app --log | tail -20')).toBe(run);
    expect(check('JOB=$(gh run view 31318147664 --repo acme/app --json jobs --jq .jobs[0].databaseId); echo "job: $JOB"')).toBe(run);
    expect(check('gh run view 31318147999 --repo acme/app --json status')).not.toBe(run);
    expect(check('gh pr checks 540')).toBe(check('gh pr checks 540 --watch'));
  });

  it("reads clusters', containers', services', processes' and logs' status, and health endpoints", () => {
    expect(check('kubectl get pods -n ai -o wide')).toBe(check('kubectl get pods -n ai'));
    expect(check('kubectl get pods -n ai')).not.toBe(check('kubectl get pods -n web'));
    expect(check('kubectl rollout status deploy/api -n web')).toBeDefined();
    expect(check('docker compose ps')).toBe(check('docker compose ps --format json'));
    expect(check('docker logs --tail 50 api')).toBe(check('docker logs api 2>&1 | grep -i error'));
    expect(check('systemctl status nginx --no-pager')).toBe(check('journalctl -u nginx -n 20'));
    expect(check('ps aux | grep -v grep | grep uvicorn')).toBe(check('pgrep -f uvicorn'));
    expect(check('tail -n 30 logs/build.log')).toBe(check('tail -5 logs/build.log'));
    expect(check('Get-Content build.log -Tail 20')).toBeDefined();
    expect(check('curl -s http://localhost:8080/health')).toBe(check('curl -sf http://localhost:8080/health?verbose=1 | jq .'));
  });

  it('is no check when the line also does work, or when it only reads a file or asks an API', () => {
    expect(check('npm run build && docker ps')).toBeUndefined();
    expect(check('git push && gh run watch')).toBeUndefined();
    expect(check('npm test 2>&1 | tail -20')).toBeUndefined();
    expect(check('cat src/app.ts')).toBeUndefined();
    expect(check('curl -s https://api.example.com/v1/users')).toBeUndefined();
    expect(check('kubectl apply -f deploy.yaml')).toBeUndefined();
    expect(check('gh pr create --fill')).toBeUndefined();
  });

  it('counts waiting and then looking as a check of what is looked at, and knows a wait alone', () => {
    expect(check('sleep 60 && echo "Poll time"')).toBe(check('sleep 60; echo "Poll time"'));
    expect(check('sleep 30 && ./status.sh')).toBeDefined();
    expect(isWaitOnly('sleep 30')).toBe(true);
    expect(isWaitOnly('Start-Sleep -Seconds 300')).toBe(true);
    expect(isWaitOnly('timeout /t 10 /nobreak > nul')).toBe(true);
    expect(isWaitOnly('sleep 30 && ls')).toBe(false);
  });
});
