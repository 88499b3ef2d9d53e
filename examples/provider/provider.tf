terraform {
  required_providers {
    eventnotify = {
      source = "eventnotify/eventnotify"
    }
  }
}

# Credentials are best taken from the environment (EVENTNOTIFY_USERNAME,
# EVENTNOTIFY_PASSWORD or EVENTNOTIFY_API_TOKEN, EVENTNOTIFY_OTP, EVENTNOTIFY_JWT).
provider "eventnotify" {
  account_id = "my-account-id"
  region     = "us"
  base_url   = "https://eventnotify.example.com"
  auth_url   = "https://auth.example.com"

  # Optional tuning.
  max_retries             = 5
  max_requests_per_second = 10
  request_timeout         = "30s"
}
