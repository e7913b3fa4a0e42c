// A program that uses GPSLocation the plain way, for tests that need a host process of the
// library other than locate: it leaves every signal's action as it is (SIGPIPE kills it, as
// it would kill any program that does not ignore it), and prints what the library gives it.
//
//   LibraryProbe once ENDPOINT          one fix, or the error
//   LibraryProbe follow ENDPOINT COUNT [hold]
//                                       the first COUNT updates, then stops iterating; with
//                                       "hold", only when a line comes on stdin, and then it says
//                                       "stopped" and lives on until stdin ends (so a test can
//                                       look at it after the stop)
//
// It exits 0 whatever the library said; any other status means the library took the process down.
import GPSLocation
import Glibc

/// Writes one line to stdout at once (unbuffered), so a test sees each as it is said.
func say(_ words: Any...) {
    let line = Array((words.map { "\($0)" }.joined(separator: " ") + "\n").utf8)
    _ = write(STDOUT_FILENO, line, line.count)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let endpoint = try? GPSDEndpoint(parsing: arguments[2]) else {
    say("usage: LibraryProbe once|follow ENDPOINT [COUNT]")
    exit(2)
}
// A daemon-like host: location always allowed, whatever the settings of whoever runs it.
let manager = GPSLocationManager(
    authorizationSource: StaticAuthorization(AuthorizationDecision(status: .authorizedAlways)),
    configuration: GPSLocationConfiguration(endpoint: endpoint, connectTimeout: .seconds(2)))
switch arguments[1] {
case "once":
    do {
        let location = try await manager.requestLocation(timeout: .seconds(5))
        say("fix", location.latitude, location.longitude)
    } catch {
        say("error:", error)
    }
case "follow":
    let count = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
    let holds = arguments.count > 4 && arguments[4] == "hold"
    var seen = 0
    do {
        for try await update in await manager.liveUpdates() {
            switch update {
            case .location(let location): say("fix", location.latitude, location.longitude)
            case .status(let event): say("status", event.name)
            }
            seen += 1
            if seen == count {
                if holds { _ = readLine() }
                break
            }
        }
    } catch {
        say("error:", error)
    }
    say("stopped")
    if holds { while readLine() != nil {} }
default:
    say("usage: LibraryProbe once|follow ENDPOINT [COUNT]")
    exit(2)
}
say("done")
