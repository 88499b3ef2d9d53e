# The levels a subscription with minimum level WARNING hears: ["WARNING", "ERROR"].
output "warning_hears" {
  value = provider::eventnotify::levels_notified("WARNING")
}

# Every level, lowest first: ["INFO", "WARNING", "ERROR"].
output "all_levels" {
  value = provider::eventnotify::levels_notified("INFO")
}
