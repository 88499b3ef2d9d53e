# The providers while the move is planned and applied: the REST provider stays in
# required_providers because the state still names it until the apply.
terraform {
  required_providers {
    eventnotify = {
      source  = "eventnotify/eventnotify"
      version = "~> 0.1.0"
    }
    restapi = {
      source = "Mastercard/restapi"
    }
  }
}

provider "eventnotify" {}
