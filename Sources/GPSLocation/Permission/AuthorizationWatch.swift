import Glibc

/// `GPSLocationManager.authorizationUpdates()`: the permission now, and again whenever it
/// changes, on a dedicated thread that polls the settings watcher and ticks for the terminal
/// state. The files are read again only when the watcher says they may have changed.
enum AuthorizationWatch {
    static func updates(_ settings: PermissionSettings) -> AsyncThrowingStream<Permission, any Error> {
        let (updates, continuation) = AsyncThrowingStream.makeStream(of: Permission.self, bufferingPolicy: .bufferingNewest(8))
        guard let wakeUp = WakeUp() else {
            continuation.finish(throwing: ConfigurationError(file: settings.files.userFile, message: "cannot watch: out of file descriptors"))
            return updates
        }
        let stopped = Flag()
        continuation.onTermination = { _ in
            stopped.set()
            wakeUp.signal()
        }
        let started = DedicatedThread.start {
            // The watcher comes first, so that a change made while the files are read is seen.
            let watcher = SettingsWatcher(settings.files)
            var tracker: PermissionTracker
            do {
                tracker = try PermissionTracker(settings)
            } catch {
                continuation.finish(throwing: error)
                return
            }
            continuation.yield(tracker.permission)
            while !stopped.isSet {
                var descriptors = [pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0)]
                if let inotify = watcher.descriptor { descriptors.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
                waitForEvents(&descriptors, timeout: SettingsWatcher.tick)
                if stopped.isSet { return }
                do {
                    let old = try tracker.update(filesChanged: watcher.filesChanged())
                    if tracker.permission != old { continuation.yield(tracker.permission) }
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
            }
        }
        if !started {
            continuation.finish(throwing: ConfigurationError(file: settings.files.userFile, message: "cannot watch: cannot start a thread"))
        }
        return updates
    }
}
