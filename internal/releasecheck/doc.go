// Package releasecheck holds the tests over the release path: the GitHub workflows under
// .github/workflows and .goreleaser.yml. They check what a reviewer would otherwise have to
// notice: every action pinned by commit, no checkout that keeps the token, no cache in the
// release job, hooks that check the module graph instead of rewriting it, an SBOM and a
// provenance attestation for every release archive, and the signing secrets used by one job
// only, the release job, which declares the protected environment that holds them.
package releasecheck
