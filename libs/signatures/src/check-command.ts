/**
 * Running a check: the tests, a build or compile, a linter or type checker, a deployment. What an
 * iteration of a phase is for a tool-calling agent (one try at making the phase's check pass), and what a
 * dependency fight keeps failing. Looking at the CI's status is waiting, not a try.
 */
const CHECK =
  /\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:build|test|compile|typecheck|check|lint|e2e|deploy)\b|\bnpx\s+(?:hardhat\s+(?:compile|test)|tsc|vitest|jest|playwright\s+test|next\s+build|vite\s+build|tauri\s+build|eslint)\b|(?:^|[;&|]\s*)(?:tsc|eslint|ruff|mypy|flake8|pylint|rubocop|golangci-lint)\b|\bcargo\s+(?:build|check|test|clippy)\b|\bpytest\b|\bpython3?\s+-m\s+(?:pytest|unittest|mypy)\b|\bgo\s+(?:build|test|vet)\b|\bmvn\b|\bgradlew?\s+\S*(?:build|test|check)\b|\bmake\b|\bswift\s+(?:build|test)\b|\bdotnet\s+(?:build|test)\b|\b(?:bundle\s+exec\s+)?(?:rspec|rake\s+test|rails\s+test)\b|\bkubectl\s+(?:apply|rollout)\b|\bterraform\s+(?:plan|apply)\b|\bdocker\s+(?:build|compose\s+up)\b|\b(?:vercel|netlify|fly|heroku)\s+deploy\b/i;

export function isCheckCommand(command: string): boolean {
  return CHECK.test(command);
}
