import Glibc

/// Notices changes to files (settings, policies), so that a revoke is never missed.
///
/// Two mechanisms, either of which suffices:
/// - inotify on the directory of each file, of each symbolic link on the way to it, and of
///   each link target (dotfile managers such as stow, home-manager and chezmoi make
///   `locate.conf` a link into another directory); the links are followed again whenever
///   something changes, so a link pointed elsewhere is watched where it points now;
/// - on every tick, a `stat` signature (device, inode, size, modification and change times) of
///   each file through its links and of the link itself, and the owner and mode of every
///   directory on its way (a directory others can write makes the file untrusted), compared
///   with the last one.
///
/// So a missed, overflowed or failed inotify can only delay a change by one tick, never lose it.
///
/// - Important: not thread-safe: polled by its owner's loop, which calls `filesChanged` when
///   `descriptor` is readable and on every tick.
package final class FileWatcher {

    private static let mask = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB
            | IN_DELETE_SELF | IN_MOVE_SELF)

    private let paths: [String]
    private let inotify: Int32
    private var watched: Set<String> = []
    private var signatures: [FileSignature]

    /// Starts watching `paths` (which need not exist yet).
    /// - Parameter usesInotify: `false` leaves only the ticks (as when inotify is unavailable).
    package init(_ paths: [String], usesInotify: Bool = true) {
        self.paths = paths
        inotify = usesInotify ? inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) : -1
        signatures = self.paths.map { FileSignature(path: $0, withTheWay: true) }
        _ = addWatches()
    }

    deinit {
        if inotify >= 0 { close(inotify) }
    }

    /// The inotify descriptor to poll for `POLLIN`, or `nil` when inotify is not in use.
    package var descriptor: Int32? { inotify >= 0 ? inotify : nil }

    /// Whether any file may have changed since the last call: inotify said so, a watch could be
    /// added that could not be before (a directory appeared; what was written in it sent no
    /// event), or a file's signature differs.
    package func filesChanged() -> Bool {
        var changed = false
        if inotify >= 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Glibc.read(inotify, &buffer, buffer.count) > 0 { changed = true }
        }
        // Links may point elsewhere now, and a removed directory's watch is gone: watch again
        // (adding a watch that exists only returns it).
        if changed { watched.removeAll() }
        if addWatches() { changed = true }
        let now = paths.map { FileSignature(path: $0, withTheWay: true) }
        if now != signatures {
            signatures = now
            changed = true
        }
        return changed
    }

    /// Adds a watch on every directory that matters now; whether a new one could be added.
    private func addWatches() -> Bool {
        guard inotify >= 0 else { return false }
        var added = false
        for directory in Set(paths.flatMap(Self.directoriesToWatch)) where !watched.contains(directory) {
            if inotify_add_watch(inotify, directory, Self.mask) >= 0 {
                watched.insert(directory)
                added = true
            }
        }
        return added
    }

    /// The directories whose changes can change what `path` reads: its own, and for each
    /// symbolic link on the way (the file, or a directory of the path), the link's directory
    /// and its target's.
    package static func directoriesToWatch(_ path: String) -> [String] {
        var result: [String] = []
        var current = path
        for _ in 0..<40 {
            let parent = directory(of: current)
            result.append(parent)
            if let parentTarget = symbolicLinkTarget(of: parent) {
                result.append(directory(of: parent))
                result.append(parentTarget)
            }
            guard let target = symbolicLinkTarget(of: current) else { break }
            current = target
        }
        return result
    }
}
