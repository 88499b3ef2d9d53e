#!/usr/bin/env bash
# Installs the provider the way the README tells a new user to, and uses it as they would: in a
# temporary HOME with no CLI configuration file, `make install`, then the README's first
# configuration, copied from README.md as it is, through `init`, `apply`, a second plan that must
# be empty, and `destroy`, against the installed eventnotify-mock, with Terraform (TERRAFORM) and
# with OpenTofu (TOFU); each lock file must record eventnotify/eventnotify at the VERSION file's
# version and the lock file hash that the provider's -version prints; the first init's warning
# "Incomplete lock file information" is there, and the lock command that make install prints,
# run literally, makes the next init -lockfile=readonly pass without it. Then `make mirror` for
# this platform and darwin_arm64, `init -plugin-dir` from it and `providers lock -fs-mirror` for
# both platforms, as the CI guide shows, and one lock file that both CLIs init -lockfile=readonly with. Fails, never skips,
# when a CLI is missing. Leaves nothing behind. `make install-test` runs it (part of `make test`).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

die() { echo "install-test: $*" >&2; exit 1; }
command -v go >/dev/null || die "Go is required; it was not found on PATH"
command -v curl >/dev/null || die "curl is required to read the mock's counters"
for var in TERRAFORM TOFU; do
  [ -n "${!var:-}" ] && [ -x "${!var}" ] || die "$var must name the $([ $var = TOFU ] && echo OpenTofu || echo Terraform) binary to test with (make install-test sets it), not '${!var:-}'"
done
terraform_bin=$TERRAFORM tofu_bin=$TOFU
version=$(cat VERSION)
platform=$(go env GOOS)_$(go env GOARCH)
other_platform=darwin_arm64
[ "$platform" != "$other_platform" ] || other_platform=linux_amd64

. scripts/lib/local-cli.sh

work=$(mktemp -d "${TMPDIR:-/tmp}/eventnotify-install-test.XXXXXX")
cleanup() {
  local_stop
  chmod -R u+w "$work" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# Go keeps its caches (a fresh HOME would rebuild everything); the CLIs see only the new HOME.
GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE) GOPATH=$(go env GOPATH)
export GOCACHE GOMODCACHE GOPATH GOBIN="$work/gobin" HOME="$work/home"
unset TF_CLI_CONFIG_FILE TF_CLI_CONFIG_DIR TF_PLUGIN_CACHE_DIR TF_DATA_DIR XDG_CONFIG_HOME XDG_DATA_HOME
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
mkdir -p "$HOME"

echo "==> make install (HOME=$HOME, no CLI configuration file)"
make --no-print-directory install | tee "$work/install.out"
# The command make install prints for re-locking, as a user copies it (run below with each CLI).
lock_command=$(sed -n 's/^   \(terraform providers lock -fs-mirror=.*\)$/\1/p' "$work/install.out")
[ "$lock_command" = "terraform providers lock -fs-mirror=$HOME/.terraform.d/plugins -platform=$platform eventnotify/eventnotify" ] ||
  die "make install printed the lock command '$lock_command', want one for $platform from $HOME/.terraform.d/plugins"
for host in registry.terraform.io registry.opentofu.org; do
  bin=$HOME/.terraform.d/plugins/$host/eventnotify/eventnotify/$version/$platform/terraform-provider-eventnotify_v$version
  [ -x "$bin" ] || die "make install did not write $bin"
  "$bin" -version >"$work/version.out"
  [ "$(sed -n 1p "$work/version.out")" = "terraform-provider-eventnotify $version" ] || die "$bin -version says '$(cat "$work/version.out")', want 'terraform-provider-eventnotify $version' first"
  # -version's sha256 is what sha256sum prints for the installed binary.
  grep -qx "sha256: $(sha256sum "$bin" | cut -d' ' -f1)  (.*" "$work/version.out" || die "$bin -version's sha256 is not sha256sum's:"$'\n'"$(cat "$work/version.out")"
done
# -version's lock file hash, checked against the lock files that init writes below.
version_h1=$(sed -n 's/^lock file hash: \(h1:[^ ]*\) .*/\1/p' "$work/version.out")
[ -x "$GOBIN/eventnotify-mock" ] || die "make install did not write $GOBIN/eventnotify-mock"
[ -x "$GOBIN/eventnotify-probe" ] || die "make install did not write $GOBIN/eventnotify-probe"

# The README's first configuration: its first hcl block, as a user copies it.
awk '/^```hcl$/ { found = 1; next } found && /^```$/ { exit } found { print }' README.md >"$work/readme.tf"
grep -q 'source  *= "eventnotify/eventnotify"' "$work/readme.tf" || die "README.md's first hcl block is not a configuration of eventnotify/eventnotify:"$'\n'"$(cat "$work/readme.tf")"

echo "==> starting the installed mock server"
mock_start "$GOBIN/eventnotify-mock" "$work"
subscriptions() { curl -fsS "$EVENTNOTIFY_BASE_URL/_mock/stats" | sed -n 's/.*"subscriptions":\([0-9]*\).*/\1/p'; }

# check_lock DIR: the lock file records the provider at VERSION, under the CLI's registry host.
check_lock() {
  local lock=$1/.terraform.lock.hcl
  [ -f "$lock" ] || die "$cli init wrote no $lock"
  awk -v addr="provider \"$provider_address\" {" -v want="  version     = \"$version\"" \
    '$0 == addr { inside = 1; next } inside && $0 == want { ok = 1 } inside && /^}/ { inside = 0 } END { exit !ok }' "$lock" ||
    die "$lock does not record $provider_address at $version:"$'\n'"$(cat "$lock")"
}

for TERRAFORM in "$terraform_bin" "$tofu_bin"; do
  cli_detect
  echo "==> $cli_version ($TERRAFORM): the README's configuration from the installed provider"
  dir=$work/$cli
  mkdir -p "$dir"
  cp "$work/readme.tf" "$dir/main.tf"
  tf() { (cd "$dir" && "$TERRAFORM" "$@" -input=false -no-color); }
  tf init >"$dir/init.out" 2>&1 || die "$cli init failed:"$'\n'"$(cat "$dir/init.out")"
  check_lock "$dir"
  grep -qF "\"$version_h1\"" "$dir/.terraform.lock.hcl" || die "$cli's lock file does not hold the hash -version prints ($version_h1):"$'\n'"$(cat "$dir/.terraform.lock.hcl")"
  # The first init with no lock file warns, as the troubleshooting guide quotes it.
  grep -q "Warning: Incomplete lock file information for providers" "$dir/init.out" ||
    die "$cli's first init no longer warns 'Incomplete lock file information for providers' (the troubleshooting guide quotes it):"$'\n'"$(cat "$dir/init.out")"
  # The command make install printed, run literally (tofu for terraform with OpenTofu), in a
  # copy of the configuration with no lock file yet: then init -lockfile=readonly passes, with no warning.
  locked=$work/$cli-locked
  mkdir -p "$locked"
  cp "$work/readme.tf" "$locked/main.tf"
  (cd "$locked" && eval "\"\$TERRAFORM\" ${lock_command#terraform }") >"$locked/lock.out" 2>&1 ||
    die "$cli: the lock command make install printed failed:"$'\n'"$(cat "$locked/lock.out")"
  cmp -s "$locked/.terraform.lock.hcl" "$dir/.terraform.lock.hcl" || die "$cli: the lock command wrote another lock file than init:"$'\n'"$(cat "$locked/.terraform.lock.hcl")"
  (cd "$locked" && "$TERRAFORM" init -input=false -no-color -lockfile=readonly) >"$locked/init.out" 2>&1 ||
    die "$cli init -lockfile=readonly after the lock command failed:"$'\n'"$(cat "$locked/init.out")"
  ! grep -q "Incomplete lock file information" "$locked/init.out" || die "$cli init warns after the lock command:"$'\n'"$(cat "$locked/init.out")"
  tf apply -auto-approve >"$dir/apply.out" 2>&1 || die "$cli apply failed:"$'\n'"$(cat "$dir/apply.out")"
  [ "$(subscriptions)" -gt 0 ] || die "after $cli apply the mock's account holds no subscription"
  set +e
  tf plan -detailed-exitcode >"$dir/plan.out" 2>&1
  code=$?
  set -e
  [ "$code" -eq 0 ] || die "the second $cli plan is not empty (exit code $code):"$'\n'"$(cat "$dir/plan.out")"
  tf destroy -auto-approve >"$dir/destroy.out" 2>&1 || die "$cli destroy failed:"$'\n'"$(cat "$dir/destroy.out")"
  [ "$(subscriptions)" -eq 0 ] || die "after $cli destroy the mock's account still holds $(subscriptions) subscriptions"
  echo "    init, apply, an empty second plan and destroy: done; the lock file records $provider_address $version"
done

echo "==> make install LOCK_PLATFORMS=\"$platform $other_platform\": the lock command for a team's platforms"
make --no-print-directory install LOCK_PLATFORMS="$platform $other_platform" >"$work/install-team.out"
team_lock_command=$(sed -n 's/^   \(terraform providers lock -fs-mirror=.*\)$/\1/p' "$work/install-team.out")
[ "$team_lock_command" = "terraform providers lock -fs-mirror=$HOME/.cache/terraform-provider-eventnotify/lock-mirror -platform=$platform -platform=$other_platform eventnotify/eventnotify" ] ||
  die "make install LOCK_PLATFORMS=... printed the lock command '$team_lock_command':"$'\n'"$(cat "$work/install-team.out")"
for TERRAFORM in "$terraform_bin" "$tofu_bin"; do
  cli_detect
  dir=$work/$cli-team
  mkdir -p "$dir"
  cp "$work/readme.tf" "$dir/main.tf"
  (cd "$dir" && eval "\"\$TERRAFORM\" ${team_lock_command#terraform }") >"$dir/lock.out" 2>&1 ||
    die "$cli: the lock command for $platform and $other_platform failed:"$'\n'"$(cat "$dir/lock.out")"
  hashes=$(grep -c '"h1:' "$dir/.terraform.lock.hcl")
  [ "$hashes" -eq 2 ] || die "$cli: after the lock command for two platforms the lock file has $hashes h1 hashes:"$'\n'"$(cat "$dir/.terraform.lock.hcl")"
  grep -qF "\"$version_h1\"" "$dir/.terraform.lock.hcl" || die "$cli: the team's lock file lacks this platform's hash $version_h1"
  (cd "$dir" && "$TERRAFORM" init -input=false -no-color -lockfile=readonly) >"$dir/init.out" 2>&1 ||
    die "$cli init -lockfile=readonly with the team's lock file failed:"$'\n'"$(cat "$dir/init.out")"
  echo "    $cli: the printed command locked $platform and $other_platform; init -lockfile=readonly passes"
done

echo "==> make mirror for $platform and $other_platform"
mirror=$work/mirror
make --no-print-directory mirror MIRROR="$mirror" MIRROR_PLATFORMS="$platform $other_platform"
for TERRAFORM in "$terraform_bin" "$tofu_bin"; do
  cli_detect
  echo "==> $cli_version: init -plugin-dir from the mirror, providers lock -fs-mirror for both platforms"
  dir=$work/$cli-mirror
  mkdir -p "$dir"
  cp "$work/readme.tf" "$dir/main.tf"
  tf() { (cd "$dir" && "$TERRAFORM" "$@" -no-color); }
  tf init -input=false -plugin-dir="$mirror" >"$dir/init.out" 2>&1 || die "$cli init -plugin-dir failed:"$'\n'"$(cat "$dir/init.out")"
  check_lock "$dir"
  # The binary of `make install` and the mirror's are the same build: the same h1 hash.
  grep -qF "$(grep -o 'h1:[^"]*' "$work/$cli/.terraform.lock.hcl")" "$dir/.terraform.lock.hcl" ||
    die "the mirror's package of $platform has another hash than the installed one"
  tf providers lock -fs-mirror="$mirror" -platform="$platform" -platform="$other_platform" >"$dir/lock.out" 2>&1 ||
    die "$cli providers lock -fs-mirror failed:"$'\n'"$(cat "$dir/lock.out")"
  hashes=$(grep -c '"h1:' "$dir/.terraform.lock.hcl")
  [ "$hashes" -ge 2 ] || die "after providers lock for two platforms the lock file has $hashes h1 hashes:"$'\n'"$(cat "$dir/.terraform.lock.hcl")"
  tf validate >"$dir/validate.out" 2>&1 || die "$cli validate with the mirror's provider failed:"$'\n'"$(cat "$dir/validate.out")"
  echo "    init -plugin-dir, providers lock for $platform and $other_platform ($hashes h1 hashes), validate: done"
done
echo "==> one lock file for both CLIs (the CI guide): source = \"registry.terraform.io/eventnotify/eventnotify\", locked once from the mirror"
dir=$work/both-clis
mkdir -p "$dir"
sed 's#source *= "eventnotify/eventnotify"#source = "registry.terraform.io/eventnotify/eventnotify"#' "$work/readme.tf" >"$dir/main.tf"
grep -q 'source = "registry.terraform.io/eventnotify/eventnotify"' "$dir/main.tf" || die "could not name the provider's full address in the README's configuration"
(cd "$dir" && "$terraform_bin" providers lock -no-color -fs-mirror="$mirror" -platform="$platform" -platform="$other_platform" registry.terraform.io/eventnotify/eventnotify) >"$dir/lock.out" 2>&1 ||
  die "providers lock for both CLIs failed:"$'\n'"$(cat "$dir/lock.out")"
cp "$dir/.terraform.lock.hcl" "$work/both-clis.lock"
for TERRAFORM in "$terraform_bin" "$tofu_bin"; do
  cli_detect
  rm -rf "$dir/.terraform"
  (cd "$dir" && "$TERRAFORM" init -input=false -no-color -lockfile=readonly) >"$dir/init-$cli.out" 2>&1 ||
    die "$cli init -lockfile=readonly with the shared lock file failed:"$'\n'"$(cat "$dir/init-$cli.out")"
  cmp -s "$dir/.terraform.lock.hcl" "$work/both-clis.lock" || die "$cli init changed the shared lock file"
done
echo "    terraform init -lockfile=readonly and tofu init -lockfile=readonly: both pass with one lock file"
echo "==> The install works as the README tells it, with $("$terraform_bin" version | sed -n 1p) and $("$tofu_bin" version | sed -n 1p)"
