import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import LocateSupport

/// `locate record`: the live stream, as `--follow` reads it (its filters, `--replay` too), each
/// position kept in the history on disk as it is handed out, until `--count`, `--duration`,
/// SIGINT, SIGTERM or the end of a replay; nothing on stdout, the count on stderr at the end.
///
/// An app like any other, `record` unless `--app` names another: only positions its permission
/// hands out are kept (under reduced accuracy, cells), and while it is not authorized nothing
/// is written. A replayed track needs no permission to be played, but is kept only while the
/// recording app is allowed: it goes into the same history as this machine's positions.
struct RecordCommand {
    let options: StreamOptions
    let manager: GPSLocationManager
    let explainer: AuthorizationMessages
    let history: LocationHistory
    /// The recording app's authorization from the consent store (a replay's manager has none of its own).
    let consent: GPSLocationManager
    /// `[history] keep`: points older than this many days are deleted at the start and the end.
    let keepDays: Int?
    let started = ContinuousClock.now

    /// The most positions a commit.
    static let batchSize = 1000

    func run() async -> ExitStatus {
        let outcome = try? await StreamLifetime.run(for: options.duration) { .success(await record()) }
        return outcome ?? .failure
    }

    private func record() async -> ExitStatus {
        // Not allowed from the start: nothing is played or kept.
        do throws(GPSLocationError) {
            if let denial = try consent.authorization().denial {
                StandardStreams.diagnose(explainer.explain(denial))
                return ExitStatus(FallbackReason.notAuthorized(denial))
            }
        } catch {
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        }
        if let failure = prune() { return failure }
        defer { _ = prune() }
        var progress = StreamProgress(replay: options.replayName)
        var kept = 0
        var status: ExitStatus?
        var updates = await manager.liveUpdates(options.liveUpdateOptions).makeAsyncIterator()
        progress.note(updates.authorization)
        do throws(GPSLocationError) {
            while let first = try await updates.next() {
                // What is ready now goes in one commit (a replay as fast as it is read; a live
                // stream's fix at a time).
                var batch: [Location] = []
                var update: LocationUpdate? = first
                while let current = update {
                    progress.note(updates.authorization)
                    switch current {
                    case .location(let location):
                        progress.notePosition()
                        if updates.lastLocationAdmission?.isAdmitted == true { batch.append(location) }
                    case .status(let event):
                        progress.note(event)
                        StandardStreams.diagnose(
                            StatusEvent(event, endpoint: manager.configuration.endpoint, explanation: explainer.explain).message)
                    }
                    if let count = options.count, kept + batch.count >= count { break }
                    guard batch.count < Self.batchSize else { break }
                    update = updates.nextIfAvailable()
                }
                // Kept only while the recording app may have them: the stream's gate for gpsd's
                // fixes, and the consent store's word too (a replay's manager has no other).
                if !batch.isEmpty, try consent.authorization().isAuthorized {
                    do throws(LocationHistory.Failure) {
                        try history.keep(batch)
                        kept += batch.count
                    } catch {
                        StandardStreams.diagnose(error.description)
                        status = ExitStatus(error)
                        break
                    }
                }
                if let count = options.count, kept >= count { break }
            }
        } catch .cancelled {
        } catch {
            StandardStreams.diagnose(error.description)
            status = ExitStatus(error)
        }
        StandardStreams.diagnose("\(kept == 1 ? "1 position" : "\(kept) positions") kept in the history")
        if let status { return status }
        if progress.endsWithInvalidSettings { return .configuration }
        if kept > 0 { return .success }
        let (reason, message) = progress.reasonForNoPosition(
            endpoint: manager.configuration.endpoint, started: started, explain: explainer.explain)
        StandardStreams.diagnose(message)
        return ExitStatus(reason)
    }

    /// Deletes the points older than `[history] keep`; the status of a failure, said on stderr.
    private func prune() -> ExitStatus? {
        guard let keepDays else { return nil }
        do throws(LocationHistory.Failure) {
            try history.forget(before: Date(timeIntervalSinceNow: -Double(keepDays) * 86_400))
            return nil
        } catch {
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        }
    }
}

extension RecordCommand {
    /// Runs `locate record` with `options`: into the history of the store's paths, with the
    /// recording app's consent and `[history] keep`.
    static func run(_ options: StreamOptions) -> ExitStatus {
        CommandContext.run(options, via: "locate record", asks: true, isStream: true) { context in
            let history: LocationHistory
            do throws(LocationHistory.Failure) {
                history = try LocationHistory(paths: context.store.paths)
            } catch {
                StandardStreams.diagnose("error: " + error.description)
                return ExitStatus(error)
            }
            let command = RecordCommand(
                options: options, manager: context.manager, explainer: context.explainer, history: history,
                consent: GPSLocationManager(authorizationSource: context.store, configuration: context.configuration),
                keepDays: context.settings.historyKeepDays)
            return Locate.waitFor { await command.run() }
        }
    }
}
