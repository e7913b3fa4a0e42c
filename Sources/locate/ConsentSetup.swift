import GPSLocation
import GPSLocationConsent
import LocateSupport

/// The first steps of every command but `geocode`, in order, each failing closed: the consent
/// store of the app, then its settings, its fallback and the track to replay (an unusable
/// settings or policy file ends the run before gpsd is asked or anything is printed). A step
/// that fails says why on stderr and throws the status the run ends with.
struct ConsentSetup {
    let store: ConsentStore
    let settings: ConsentSettings
    let fallback: FallbackCoordinate?
    /// The track played instead of gpsd (`--replay`), if any.
    let replay: ReplayTrack?

    /// The consent store of `app` (`nil`: `[location]`), the settings' warnings said on stderr.
    static func store(app: String?) throws(ExitStatus) -> ConsentStore {
        do throws(GPSLocationError) {
            return try ConsentStore(paths: .current, appName: app) { StandardStreams.diagnose($0) }
        } catch {
            StandardStreams.diagnose(error.description)
            throw ExitStatus(error)
        }
    }

    /// The store of `app`, its settings and fallback, and the track at `path` (`-` for stdin).
    init(app: String?, replay path: String? = nil) throws(ExitStatus) {
        store = try Self.store(app: app)
        do throws(GPSLocationError) {
            settings = try store.settings()
            fallback = try store.fallback(resolvingPlaceNames: FallbackPlace.coordinate(of:))
            replay = try path.map { path throws(GPSLocationError) in
                try path == "-" ? Self.trackFromStandardInput() : ReplayTrack(contentsOf: path)
            }
        } catch {
            StandardStreams.diagnose(error.description)
            throw ExitStatus(error)
        }
    }

    /// `body` with the set-up of `app` (and the track at `path`), or the status of the step that
    /// failed (said on stderr): how every command but `geocode` starts.
    static func run<Failure: Error>(
        app: String?, replay path: String? = nil, _ body: (ConsentSetup) throws(Failure) -> ExitStatus
    ) throws(Failure) -> ExitStatus {
        let setup: ConsentSetup
        do throws(ExitStatus) {
            setup = try ConsentSetup(app: app, replay: path)
        } catch {
            return error
        }
        return try body(setup)
    }

    /// gpsd's configuration: `endpoint` (the command line's), else the settings', else the default.
    func configuration(endpoint: GPSDEndpoint?) -> GPSLocationConfiguration {
        GPSLocationConfiguration(endpoint: endpoint ?? settings.gpsdServer ?? .default)
    }

    /// `--replay -`: the track piped in, read as it comes by the stream (which a signal stops,
    /// even while the pipe stays open without a byte). Not from a terminal: its lines are a
    /// person's typing, not a track.
    private static func trackFromStandardInput() throws(GPSLocationError) -> ReplayTrack {
        let name = "standard input"
        guard !StandardIO.isTerminal(.input) else {
            throw .invalidTrack(file: name, line: nil, reason: "is a terminal; pipe a track in, or name its file")
        }
        return ReplayTrack(readingFrom: StandardIO.Stream.input.rawValue, name: name)
    }
}
