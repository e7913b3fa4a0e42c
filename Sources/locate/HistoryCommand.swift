import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces
import LocateFormats
import LocateSupport

/// `locate history`: the points `locate record` kept, in time order (`--from`, `--to`, `--near`),
/// as the records of `--follow` in any of its formats or as GeoJSON; `--days`, a line per local
/// day; `--forget [--before TIME]`, deleted.
///
/// Reading the history is a location request of the reading app (`--app`, else `[location]`):
/// a reader not authorized now gets nothing (77, and why on stderr), a reduced one grid cells at
/// most one every five minutes of the points' times (``GPSLocationManager/admitKept(_:)``), and
/// a read that handed positions out is a session of `locate access`. Nothing matched: the
/// document (if any) is empty and the status is 1, as grep's. Forgetting needs no permission:
/// it hands nothing out.
struct HistoryCommand {
    let options: HistoryOptions
    /// Over the consent store: the reading app's authorization.
    let manager: GPSLocationManager
    let explainer: AuthorizationMessages
    let paths: SettingsPaths
    let writer: RecordWriter

    /// Above this speed between two points, the time between them counts as moving (m/s; a walk is 1.4).
    static let movingSpeed = 0.5
    /// A longer gap between two points is no movement known: it counts for neither distance nor time moving.
    static let longestGap = 300.0

    func run() throws(StandardStreams.OutputError) -> ExitStatus {
        if options.forget { return forget() }
        let kept: [Location]
        switch admitted() {
        case .points(let locations): kept = locations
        case .refused(let status): return status
        }
        if options.days {
            try writeDays(of: kept)
        } else {
            var writer = self.writer
            writer.start()
            for location in kept { _ = writer.write(location) }
            try writer.finishHere()
        }
        guard !kept.isEmpty else {
            StandardStreams.diagnose("no point of the history matches")
            return .failure
        }
        return .success
    }

    /// The points asked for, as the reading app may have them now; or, said on stderr, the status
    /// of why not (not authorized, a store that cannot be trusted or read).
    private enum Read {
        case points([Location])
        case refused(ExitStatus)
    }

    private func admitted() -> Read {
        do throws(GPSLocationError) {
            // Asked first: a reader not allowed is not shown even how much there is.
            if let denial = try manager.authorization().denial { return .refused(refuse(denial)) }
            // Whole periods are read and admitted, and the query asks what was admitted: under
            // reduced accuracy, no choice of times or places tells more than the cells do.
            let period = GPSLocationManager.keptPeriod
            var stored: [Location] = []
            if LocationHistory.exists(paths: paths) {
                do throws(LocationHistory.Failure) {
                    stored = try LocationHistory(paths: paths, create: false).locations(
                        from: options.from.map { Date(timeIntervalSince1970: ($0 / period).rounded(.down) * period) },
                        to: options.to.map { Date(timeIntervalSince1970: ($0 / period).rounded(.up) * period) })
                } catch {
                    StandardStreams.diagnose(error.description)
                    return .refused(ExitStatus(error))
                }
            }
            // Judged again as they are handed out: a revoke since the first look gives nothing.
            guard var admitted = try manager.admitKept(stored) else {
                return .refused(refuse(try manager.authorization().denial ?? .denied))
            }
            admitted.removeAll { location in
                guard let time = location.time?.timeIntervalSince1970 else { return false }
                return time < (options.from ?? -.infinity) || time >= (options.to ?? .infinity)
            }
            if let near = options.near, let center = try? Location(latitude: near.latitude, longitude: near.longitude, mode: nil) {
                admitted.removeAll { $0.distance(from: center) > near.radius }
            }
            return .points(admitted)
        } catch {
            StandardStreams.diagnose(error.description)
            return .refused(ExitStatus(error))
        }
    }

    private func refuse(_ denial: DenialReason) -> ExitStatus {
        StandardStreams.diagnose(explainer.explain(denial))
        return ExitStatus(FallbackReason.notAuthorized(denial))
    }

    private func forget() -> ExitStatus {
        guard LocationHistory.exists(paths: paths) else {
            StandardStreams.diagnose("the history is empty: nothing to forget")
            return .success
        }
        do throws(LocationHistory.Failure) {
            let forgotten = try LocationHistory(paths: paths, create: false).forget(
                before: options.before.map(Date.init(timeIntervalSince1970:)))
            // How many is the history's too: said only to an app that may read it.
            let allowed = (try? manager.authorization().isAuthorized) ?? false
            StandardStreams.diagnose(
                allowed ? "forgot \(forgotten == 1 ? "1 point" : "\(forgotten) points") of the history" : "forgot the points asked for")
            return .success
        } catch {
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        }
    }

    // MARK: - Days

    /// One local day of the history.
    struct Day: Equatable {
        let date: String
        var points = 0
        var distance = 0.0
        var moving = 0.0
        var places: [String] = []
    }

    /// The days of `locations` (in time order): points, the geodesic distance and the time
    /// moving between consecutive points of the day (pairs more than ``longestGap`` apart count
    /// for neither), and the places of the day's visits (`VisitDetector`'s defaults), when the
    /// place data is installed.
    static func days(of locations: [Location], places: PlaceFinder?) -> [Day] {
        var days: [Day] = []
        var previous: Location?
        var visits = try? VisitDetector()
        for location in locations {
            guard let time = location.time, let date = LocalTime.date(of: time.timeIntervalSince1970) else { continue }
            if days.last?.date != date {
                days.append(Day(date: date))
                previous = nil
            }
            days[days.count - 1].points += 1
            if let previous, let before = previous.time {
                let gap = time.timeIntervalSince(before)
                let distance = location.distance(from: previous)
                if gap > 0, gap <= longestGap {
                    days[days.count - 1].distance += distance
                    if distance / gap >= movingSpeed { days[days.count - 1].moving += gap }
                }
            }
            previous = location
            for event in visits?.process(location) ?? [] where event.kind == .arrival {
                guard let name = places?.reverseGeocode(latitude: event.visit.latitude, longitude: event.visit.longitude)?.formatted,
                    !days[days.count - 1].places.contains(name)
                else { continue }
                days[days.count - 1].places.append(name)
            }
        }
        return days
    }

    private func writeDays(of locations: [Location]) throws(StandardStreams.OutputError) {
        let places = try? PlaceFinder(language: options.output.placeLanguage ?? .current)
        for day in Self.days(of: locations, places: places) {
            let distance = NumberFormatting.fixed(day.distance, decimals: 1) ?? "0"
            let moving = Int(day.moving.rounded())
            if options.output.isJSON {
                var object = JSONObjectWriter()
                object.add(RecordKey.date.rawValue, string: day.date)
                object.add(RecordKey.points.rawValue, json: String(day.points))
                object.add(RecordKey.distance.rawValue, json: distance)
                object.add(RecordKey.movingSeconds.rawValue, json: String(moving))
                object.add(RecordKey.places.rawValue, json: "[" + day.places.map(FlatJSON.quoted).joined(separator: ",") + "]")
                try StandardStreams.writeRecord(object.text)
            } else {
                let named = day.places.isEmpty ? "" : " " + day.places.joined(separator: "; ")
                try StandardStreams.writeRecord("\(day.date) \(day.points) \(distance) \(moving)\(named)")
            }
        }
    }
}

extension HistoryCommand {
    /// Runs `locate history` with `options`, over the store's paths: a read is a location
    /// request of the reading app (asked when nothing is decided); forgetting hands nothing out.
    /// - Throws: `OutputError` when stdout cannot be written.
    static func run(_ options: HistoryOptions) throws(StandardStreams.OutputError) -> ExitStatus {
        try CommandContext.run(
            options.stream, output: options.output, records: options.output.recordFormat(gpx: .track), via: "locate history",
            asks: !options.forget, isStream: false
        ) { context throws(StandardStreams.OutputError) in
            let command = HistoryCommand(
                options: options, manager: context.manager, explainer: context.explainer, paths: context.store.paths,
                writer: context.writer)
            return try command.run()
        }
    }
}
