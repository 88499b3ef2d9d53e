# The provider, for every step of the adoption guide. This file stays while
# main.tf changes from step to step. The provider block is empty: the account,
# the service's addresses and the credentials come from the EVENTNOTIFY_*
# environment variables.
terraform {
  required_providers {
    eventnotify = {
      source  = "eventnotify/eventnotify"
      version = "~> 0.1.0"
    }
  }
}

provider "eventnotify" {}
