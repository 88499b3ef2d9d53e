data "eventnotify_log_levels" "all" {}

output "log_levels" {
  value = { for l in data.eventnotify_log_levels.all.log_levels : l.name => l.description }
}
