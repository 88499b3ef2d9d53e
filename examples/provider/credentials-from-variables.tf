# Credentials in a provider block from input variables. A saved plan
# (terraform plan -out=tfplan) holds the value of every root variable, also
# sensitive ones, but not of an ephemeral one (Terraform 1.10 and later,
# OpenTofu 1.11 and later): give it again to terraform apply tfplan and to
# terraform destroy, for instance as TF_VAR_eventnotify_password. The account
# and the addresses come from EVENTNOTIFY_ACCOUNT_ID, EVENTNOTIFY_BASE_URL and
# EVENTNOTIFY_AUTH_URL here. With an older CLI, export the credentials as
# EVENTNOTIFY_USERNAME and EVENTNOTIFY_PASSWORD instead.
variable "eventnotify_password" {
  type      = string
  ephemeral = true
  sensitive = true
}

provider "eventnotify" {
  username = "ci-bot"
  password = var.eventnotify_password
}
