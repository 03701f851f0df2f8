/** The configuration of a CI service: its jobs are the project's checks before a merge or a deploy, and its logs are read by everyone who can see the runs. */
export const CI_FILE = /(?:^|\/)(?:\.github\/workflows\/[^/]+\.ya?ml|\.gitlab-ci\.ya?ml|\.circleci\/config\.ya?ml|azure-pipelines\.ya?ml|bitbucket-pipelines\.ya?ml|\.buildkite\/[^/]+\.ya?ml|\.travis\.ya?ml|\.drone\.ya?ml|buildspec\.ya?ml|Jenkinsfile)$/;

/** What an edit or write of a CI file leaves there, and what was there before it (empty for a new file). */
export function ciChange(input: Record<string, unknown>): { before: string; after: string } {
  const before = typeof input['old_string'] === 'string' ? input['old_string'] : '';
  const after = typeof input['new_string'] === 'string' ? input['new_string'] : typeof input['content'] === 'string' ? input['content'] : '';
  return { before, after };
}
