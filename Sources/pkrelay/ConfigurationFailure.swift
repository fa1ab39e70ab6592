/// A configuration the relay refuses: printed as `Error: configuration FILE: key: reason`, exit status 1.
struct ConfigurationFailure: Error, CustomStringConvertible {
    let description: String
}
