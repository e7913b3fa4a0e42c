import Dispatch
import Glibc

/// Watches the settings and policy files for changes (inotify on their directories, so editors
/// that write a new file and rename it over the old one are seen too), and ticks regularly so
/// a caller can also notice the process moving between foreground and background.
///
/// Runs on a dedicated thread until `stop()`.
final class SettingsWatcher: Sendable {
    /// What the watcher reports.
    enum Signal: Sendable {
        /// Something in a watched directory changed: read the files again.
        case filesChanged
        /// Time passed (every `tick`): check the process's terminal state again.
        case tick
    }

    /// How often the watcher ticks; also the bound on how late a change can be noticed.
    static let tick = Duration.milliseconds(200)

    private let stopped = Flag()

    /// Starts watching the directories of `files`; `report` is called on the watcher's thread.
    init(_ files: SettingsFiles, report: @escaping @Sendable (Signal) -> Void) {
        let directories = ([files.userFile] + files.policyCandidates).map(Self.directory)
        let stopped = self.stopped
        DispatchQueue(label: "locate.settings-watcher").async {
            Self.run(directories: directories, stopped: stopped, report: report)
        }
    }

    /// Ends the watch within one tick.
    func stop() {
        stopped.set()
    }

    private static func run(directories: [String], stopped: Flag, report: @Sendable (Signal) -> Void) {
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        defer { if inotify >= 0 { close(inotify) } }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        var watched: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !stopped.isSet {
            // A directory may appear later (the first `locate permission allow` creates it). A file
            // written there before its watch existed sent no event, so a new watch counts as a change.
            var addedWatch = false
            for directory in directories where !watched.contains(directory) && inotify >= 0 {
                if inotify_add_watch(inotify, directory, mask) >= 0 {
                    watched.insert(directory)
                    addedWatch = true
                }
            }
            if addedWatch { report(.filesChanged) }
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 1, Int32(tick.milliseconds))
            if stopped.isSet { return }
            if ready > 0 {
                var changed = false
                while Glibc.read(inotify, &buffer, buffer.count) > 0 { changed = true }
                if changed { report(.filesChanged) }
                // A watched directory that was removed or moved stops reporting; watch it again
                // (inotify_add_watch on a directory already watched just returns its watch).
                watched.removeAll()
            }
            report(.tick)
        }
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
