#!/usr/bin/env bash
# Checks the archives GoReleaser wrote to DIST (default dist/), as `make release-snapshot` does:
#   - the version is the VERSION file's (a snapshot's is VERSION-SNAPSHOT-<commit>);
#   - each terraform-provider-eventnotify_<version>_<os>_<arch>.zip holds the provider binary,
#     LICENSE and README.md, and nothing else: it lands in every user's plugin cache;
#   - the SHA256SUMS file lists exactly those zips and the registry manifest (the Registry
#     rejects a release whose SHA256SUMS lists files it does not ingest), with the right sums;
#   - every platform also has an eventnotify-mock_<version>_<os>_<arch> archive holding the mock
#     and LICENSE;
#   - when DIST holds SBOMs (a release always does; a snapshot without syft on PATH skips them),
#     every archive has its <archive>.sbom.json, a JSON document, and SHA256SUMS lists none of them.
# Needs unzip, tar and sha256sum (or shasum).
set -euo pipefail
dist=${1:-dist}
die() { echo "check-release: $*" >&2; exit 1; }
command -v unzip >/dev/null || die "unzip is required"
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }

provider=terraform-provider-eventnotify
shopt -s nullglob
sums_files=("$dist"/${provider}_*_SHA256SUMS)
[ ${#sums_files[@]} -eq 1 ] || die "want one ${provider}_<version>_SHA256SUMS in $dist, found ${#sums_files[@]}"
sums=${sums_files[0]}
version=${sums##*/${provider}_}
version=${version%_SHA256SUMS}
want_version=$(cat "$(dirname "$0")/../VERSION")
case "$version" in
  "$want_version" | "$want_version"-SNAPSHOT-*) ;;
  *) die "the archives are of version $version, but the VERSION file holds $want_version" ;;
esac
zips=("$dist"/${provider}_"${version}"_*.zip)
archives=()
[ ${#zips[@]} -gt 0 ] || die "no ${provider}_${version}_<os>_<arch>.zip in $dist"

for zip in "${zips[@]}"; do
  # The listing is read whole before grep sees it: `unzip | grep -q` fails under pipefail when grep
  # stops reading early.
  entries=$(unzip -Z1 "$zip")
  while IFS= read -r entry; do
    case "$entry" in
      "${provider}_v${version}" | "${provider}_v${version}.exe" | README.md | LICENSE) ;;
      *) die "$(basename "$zip") holds $entry: a provider zip holds the provider binary, README.md and LICENSE only" ;;
    esac
  done <<<"$entries"
  grep -qx "${provider}_v${version}\(\.exe\)\?" <<<"$entries" || die "$(basename "$zip") does not hold ${provider}_v${version}"
  grep -qx LICENSE <<<"$entries" || die "$(basename "$zip") does not hold LICENSE"
done

# SHA256SUMS: the provider's zips and the manifest, no more, no fewer.
want=$(for zip in "${zips[@]}"; do basename "$zip"; done; echo "${provider}_${version}_manifest.json")
got=$(awk '{ print $2 }' "$sums")
[ "$(sort <<<"$want")" = "$(sort <<<"$got")" ] ||
  die "$(basename "$sums") lists:"$'\n'"$got"$'\n'"want exactly:"$'\n'"$want"
while read -r sum name; do
  file="$dist/$name"
  [ "$name" != "${provider}_${version}_manifest.json" ] || file=terraform-registry-manifest.json
  [ "$(sha256 "$file" | awk '{ print $1 }')" = "$sum" ] || die "the sum of $name in $(basename "$sums") is wrong"
done <"$sums"

# The mock: an archive of its own per platform.
for zip in "${zips[@]}"; do
  platform=${zip##*/${provider}_"${version}"_}
  platform=${platform%.zip}
  mock_archives=()
  for ext in tar.gz zip; do
    [ ! -e "$dist/eventnotify-mock_${version}_${platform}.$ext" ] || mock_archives+=("$dist/eventnotify-mock_${version}_${platform}.$ext")
  done
  [ ${#mock_archives[@]} -eq 1 ] || die "want one eventnotify-mock_${version}_${platform} archive, found ${#mock_archives[@]}"
  case "${mock_archives[0]}" in
    *.zip) entries=$(unzip -Z1 "${mock_archives[0]}") ;;
    *) entries=$(tar -tzf "${mock_archives[0]}") ;;
  esac
  grep -qx 'eventnotify-mock\(\.exe\)\?' <<<"$entries" || die "$(basename "${mock_archives[0]}") does not hold eventnotify-mock"
  grep -qx LICENSE <<<"$entries" || die "$(basename "${mock_archives[0]}") does not hold LICENSE"
  archives+=("$zip" "${mock_archives[0]}")
done

# SBOMs: one beside every archive, or none at all (a snapshot built without syft).
sboms=("$dist"/*.sbom.json)
sbom_note="no SBOMs (syft was not on PATH)"
if [ ${#sboms[@]} -gt 0 ]; then
  for archive in "${archives[@]}"; do
    [ -s "$archive.sbom.json" ] || die "$(basename "$archive") has no SBOM $(basename "$archive").sbom.json"
    [ "$(head -c 1 "$archive.sbom.json")" = "{" ] || die "$(basename "$archive").sbom.json is not a JSON document"
  done
  sbom_note="every archive has its SBOM"
fi
echo "check-release: version $version; ${#zips[@]} provider zips hold the provider alone (with LICENSE and README.md), $(basename "$sums") lists them and the manifest only, each platform has its mock archive with LICENSE, and $sbom_note"
