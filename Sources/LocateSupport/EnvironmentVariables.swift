import Glibc

/// Environment variables: this process's, looked up one at a time (`getenv`), or a set a test or
/// a host gives as a dictionary literal. Building a dictionary of the whole environment would
/// cost every start a hashing conformance lookup and a few dozen allocations for the handful of
/// variables `locate` reads. Shared by the libraries and the command (`package`).
package struct EnvironmentVariables: Sendable, ExpressibleByDictionaryLiteral {
    /// The given variables, or `nil` for this process's own.
    private let given: [String: String]?

    /// This process's environment.
    package static let process = EnvironmentVariables(given: nil)

    private init(given: [String: String]?) {
        self.given = given
    }

    /// The variables of `dictionary`, and no others.
    package init(_ dictionary: [String: String]) {
        given = dictionary
    }

    /// The variables listed, and no others.
    package init(dictionaryLiteral elements: (String, String)...) {
        given = Dictionary(elements, uniquingKeysWith: { $1 })
    }

    /// The value of `name`, or `nil` when it is not set.
    package subscript(_ name: String) -> String? {
        if let given { return given[name] }
        return getenv(name).map { String(cString: $0) }
    }
}
