/// The version of TermEngine this `termengine` was built from, printed by
/// `termengine --version` as `termengine 0.1.0`. Semantic versioning: what
/// each part promises, and what counts as the public API, is in CHANGELOG.md.
enum TermEngineVersion {
    static let current = "0.1.0"
}
