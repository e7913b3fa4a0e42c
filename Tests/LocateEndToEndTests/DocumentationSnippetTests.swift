import Foundation
import Testing

/// Every Swift snippet of README and the DocC catalogues (articles and doc comments) compiles
/// against the libraries as built: a newcomer who copies one gets no error the docs hid.
///
/// A snippet is compiled as a file of its own, with only the imports it shows, beside a prelude
/// of the host's own pieces the docs leave to the reader (`show`, `record`, a dialog) and the
/// `manager` the articles after Getting Started work with. Its type declarations stay at the
/// top level; its statements become the body of an `async throws` function, as app code runs.
struct DocumentationSnippetTests {
    @Test func everySnippetCompiles() async throws {
        let snippets = try Snippet.all()
        #expect(snippets.count >= 10, "the snippets were found")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-snippets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let prelude = directory.appendingPathComponent("Prelude.swift")
        try Data(Snippet.prelude.utf8).write(to: prelude)
        let failures = try await withThrowingTaskGroup(of: String?.self) { group in
            for (index, snippet) in snippets.enumerated() {
                let file = directory.appendingPathComponent("Snippet\(index).swift")
                try Data(snippet.source.utf8).write(to: file)
                group.addTask { try await Snippet.typecheck(file, with: prelude).map { "\(snippet.origin):\n\($0)" } }
            }
            return try await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }
}

/// A ```swift block of the docs, as a file to compile.
private struct Snippet {
    /// Where it is: file and line of its opening fence.
    let origin: String
    let source: String

    /// The host's pieces the docs use and leave to the reader.
    static let prelude = """
        import Foundation
        import GPSLocation
        import GPSLocationConsent
        import GPSLocationPlaces

        func show(_ items: Any...) {}
        func notify(_ items: Any...) {}
        func log(_ items: Any...) {}
        func record(_ location: Location) {}
        func showPermissionDialog(app: String?, purpose: String?) async -> AuthorizationAnswer? { nil }
        struct MyDialog: AuthorizationPrompter {
            func ask(_ question: AuthorizationQuestion) async -> AuthorizationAnswer? { nil }
        }
        let prompter = MyDialog()
        let source = StaticAuthorization(AuthorizationDecision(status: .authorizedWhenInUse))
        struct Window {
            func onMinimize(_ action: @escaping @Sendable () -> Void) {}
            func onRestore(_ action: @escaping @Sendable () -> Void) {}
        }
        let window = Window()
        let manager = GPSLocationManager(authorizationSource: StaticAuthorization(AuthorizationDecision(status: .authorizedAlways)))

        """

    /// The snippets of README.md, the DocC articles and the doc comments of the sources.
    static func all() throws -> [Snippet] {
        let root = Package.root
        var files = [root.appendingPathComponent("README.md")]
        let sources = root.appendingPathComponent("Sources")
        for case let relative as String in FileManager.default.enumerator(atPath: sources.path) ?? .init() {
            if relative.hasSuffix(".md") && relative.contains(".docc/") || relative.hasSuffix(".swift") {
                files.append(sources.appendingPathComponent(relative))
            }
        }
        return try files.flatMap { file in
            let text = try String(contentsOf: file, encoding: .utf8)
            let isSwift = file.pathExtension == "swift"
            // An article or a doc comment is read in its module's documentation: its import goes
            // without saying. README's snippets show every import they need.
            let components = file.path.dropFirst(root.path.count + 1).split(separator: "/")
            let module = components.first == "Sources" && components.count > 2 ? String(components[1]) : nil
            return blocks(in: text, docComments: isSwift).map { line, body in
                Snippet(origin: "\(components.joined(separator: "/")):\(line)", source: wrapped(body, module: module))
            }
        }
    }

    /// The ```swift blocks of `text` (in `///` comments, for a Swift file), each with its line.
    static func blocks(in text: String, docComments: Bool) -> [(Int, [String])] {
        var blocks: [(Int, [String])] = []
        var current: (Int, [String])?
        for (index, rawLine) in text.components(separatedBy: "\n").enumerated() {
            var line = rawLine
            if docComments {
                let trimmed = line.drop { $0 == " " }
                guard trimmed.hasPrefix("///") else {
                    current = nil
                    continue
                }
                line = String(trimmed.dropFirst(3).dropFirst(trimmed.dropFirst(3).hasPrefix(" ") ? 1 : 0))
            }
            let fence = line.trimmingCharacters(in: .whitespaces)
            if let block = current {
                if fence == "```" {
                    blocks.append(block)
                    current = nil
                } else {
                    current?.1.append(line)
                }
            } else if fence == "```swift" {
                current = (index + 1, [])
            }
        }
        return blocks
    }

    /// The snippet as a file: its imports, its declarations at the top level, its statements in
    /// an `async throws` function.
    static func wrapped(_ lines: [String], module: String?) -> String {
        var imports = module.map { ["import \($0)"] } ?? []
        var declarations: [String] = []
        var statements: [String] = []
        var depth = 0
        var inDeclaration = false
        let declarationStart = /^(@[A-Za-z]+(\([^)]*\))?\s+)*(public\s+)?(final\s+class|class|struct|enum|actor|extension|protocol|func)\s/
        for line in lines {
            if depth == 0 {
                if line.hasPrefix("import ") {
                    imports.append(line)
                    continue
                }
                inDeclaration = line.prefixMatch(of: declarationStart) != nil || line.hasPrefix("@") && !line.contains("=")
            }
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            if inDeclaration { declarations.append(line) } else { statements.append("    " + line) }
        }
        return (imports + [""] + declarations + ["", "func snippet() async throws {"] + statements + ["}", ""]).joined(separator: "\n")
    }

    /// The compiler's complaint about `file`, or `nil` when it type-checks.
    static func typecheck(_ file: URL, with prelude: URL) async throws -> String? {
        let build = Package.locate.deletingLastPathComponent()
        let root = Package.root
        let compile = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swiftc", "-typecheck", "-parse-as-library", "-swift-version", "6", "-module-name", "Snippet", "-I",
                build.appendingPathComponent("Modules").path, "-I", root.appendingPathComponent("Sources/CLibGPS").path, "-I",
                root.appendingPathComponent("Sources/CGeonames").path, "-I", root.appendingPathComponent("Sources/CMosquitto").path, "-I",
                root.appendingPathComponent("Sources/CNetCDF").path, "-I", root.appendingPathComponent("Sources/CSQLite").path, "-I",
                root.appendingPathComponent("Sources/CCurl").path, "-I", root.appendingPathComponent("Sources/CSDBus").path,
                prelude.path, file.path,
            ])
        let status = try await compile.waitForExit(timeout: 60)
        guard status != 0 else { return nil }
        let source = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return compile.stderr.text + "\n--- as compiled ---\n" + source
    }
}
