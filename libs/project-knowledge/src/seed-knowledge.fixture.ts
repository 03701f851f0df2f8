/** The example configuration of seed 004, verbatim. */
export const SEED_KNOWLEDGE_TOML = `# .patinox/knowledge.toml

[endpoints]
[endpoints.playwright]
name = "Playwright Server"
default_url = "http://localhost:9222"
config_key = "PLAYWRIGHT_SERVER_URL"
health_check = "/json/version"

[endpoints.api]
name = "Main API"
default_url = "http://localhost:8080"
config_key = "API_BASE_URL"

[[known_issues]]
symptom = "Failed to connect to Playwright server"
common_cause = "Wrong endpoint configuration"
simple_fix = "Check PLAYWRIGHT_SERVER_URL environment variable"
escalation_trap = "install playwright browsers"

[[known_issues]]
symptom = "Connection refused"
common_cause = "Service not running or wrong port"
simple_fix = "Verify service status and port configuration"
escalation_trap = "install dependencies"

[[practices]]
name = "Connection Failures"
rule = "Always verify configuration before installing software"
validation = "Check config and test connectivity first"
`;
