/// One man page: its name and section, which commands' usage lines, options and statuses it
/// gives (`""`: locate itself), and its prose (see `ManPage` for the Markdown it is written in).
/// `locate(1)` is the default command, once and follow; each command group has its page;
/// `locate.conf(5)` the settings; `locate-privacy(7)` the permission and threat models.
struct ManualPage: Sendable {
    let name: String
    let section: Int
    let summary: String
    let commands: [String]
    /// Whether the page lists the files locate reads and writes.
    let listsFiles: Bool
    /// Whether the page shows every settings key in an example file.
    let showsSettings: Bool
    /// The prose after the synopsis, from `## Description` on.
    let description: String
    /// The prose after the options.
    let details: String

    /// The manual's name for the section, as `.TH` gives it.
    var manual: String {
        switch section {
        case 1: "User Commands"
        case 5: "File Formats"
        default: "Miscellanea"
        }
    }

    /// Every page, `locate(1)` first.
    static let all: [ManualPage] = [.locate, .permission, .geocode, .monitor, .publish, .history, .serve, .agent, .conf, .privacy]

    /// The page that explains `command` (`locate-serve` for serve), for its help's last line.
    static func page(of command: String) -> ManualPage {
        all.first { $0.commands.contains(command) } ?? .locate
    }
}
