/// The release of this build.
enum RelayVersion {
    static let current = "0.1.0"
}
