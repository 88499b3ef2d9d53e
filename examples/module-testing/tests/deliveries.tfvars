# The module's inputs for tests/deliveries.sh, as the test files set them.
environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
environment_name = "Production"
topic            = "platform-alerts"
events = {
  "ATOM.STATUS"       = "WARNING"
  "PROCESS.EXECUTION" = "ERROR"
}
