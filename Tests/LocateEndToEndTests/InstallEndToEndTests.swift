import Foundation
import Testing

/// `make install NAME=gps-locate` beside plocate, and `make uninstall`, into a temporary DESTDIR.
struct InstallEndToEndTests {
    @Test func installsUnderItsNameAndUninstallsExactlyThat() async throws {
        let settings = try SettingsHome()
        let root = settings.root.appendingPathComponent("destdir")
        let bin = root.appendingPathComponent("usr/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        // Someone else's file where locate installs: plocate's `locate` stays as it is.
        let plocate = bin.appendingPathComponent("locate")
        try "#!/bin/sh\necho plocate\n".write(to: plocate, atomically: true, encoding: .utf8)
        let make = "make -s -C '\(Package.root.path)' RELEASE='\(Package.locate.path)' DESTDIR='\(root.path)' PREFIX=/usr NAME=gps-locate"
        let install = try await runShell(make + " install-files", settings: settings, timeout: 60)
        #expect(install.status == 0, "\(install.stderr)")
        let files = [
            "usr/bin/gps-locate", "usr/share/man/man1/gps-locate.1", "usr/share/bash-completion/completions/gps-locate",
            "usr/share/zsh/site-functions/_gps-locate", "usr/share/fish/vendor_completions.d/gps-locate.fish",
            "usr/share/systemd/user/gps-locate-serve.service", "usr/share/systemd/user/gps-locate-agent.service",
        ]
        let pages = [
            "man1/gps-locate-permission.1", "man1/gps-locate-geocode.1", "man1/gps-locate-monitor.1", "man1/gps-locate-publish.1",
            "man1/gps-locate-serve.1", "man1/gps-locate-agent.1", "man5/gps-locate.conf.5", "man7/gps-locate-privacy.7",
            "man1/gps-locate-history.1",
        ].map { "usr/share/man/" + $0 }
        #expect(try installedFiles(root) == Set(files + pages + ["usr/bin/locate"]))
        let servePage = readWholeFile(root.appendingPathComponent(pages[4]).path)
        #expect(servePage.hasPrefix(".TH GPS\\-LOCATE\\-SERVE 1") && servePage.contains("\ngps\\-locate serve"), "\(servePage.prefix(200))")
        let manual = try await runShell("MANPATH='\(root.path)/usr/share/man' man -P cat gps-locate.conf 2>&1", settings: settings)
        #expect(manual.status == 0 && manual.stdout.contains("[location]"), "man finds the installed page: \(manual.stdout.prefix(300))")
        let installed = root.appendingPathComponent("usr/bin/gps-locate").path
        let symbols = try await runShell("readelf -S '\(installed)' | grep -c '\\.symtab' || true", settings: settings)
        #expect(symbols.stdout == "0\n", "stripped: no symbol table")
        // Every hint and usage line says the name it was installed as.
        let hint = try await runShell("'\(installed)' 127.0.0.1:1", settings: settings)
        #expect(hint.stderr.contains("allow it with: gps-locate permission allow") && !hint.stderr.contains(" locate "), "\(hint.stderr)")
        let usage = try await runShell("'\(installed)' --bogus", settings: settings)
        #expect(usage.stderr.contains("Usage: gps-locate [--once]") && usage.stderr.contains("See 'gps-locate --help'"), "\(usage.stderr)")
        let page = readWholeFile(root.appendingPathComponent(files[1]).path)
        #expect(page.hasPrefix(".TH GPS\\-LOCATE 1") && page.contains("\ngps\\-locate \\-\\-follow"), "\(page.prefix(200))")
        #expect(readWholeFile(root.appendingPathComponent(files[2]).path).contains("complete -F _gps_locate gps-locate"))
        #expect(readWholeFile(root.appendingPathComponent(files[3]).path).hasPrefix("#compdef gps-locate\n"))
        #expect(readWholeFile(root.appendingPathComponent(files[4]).path).contains("complete -c gps-locate "))
        let unit = readWholeFile(root.appendingPathComponent(files[5]).path)
        #expect(unit.contains("ExecStart=/usr/bin/gps-locate serve") && unit.contains("man:gps-locate-serve(1)"), "\(unit)")
        let agentUnit = readWholeFile(root.appendingPathComponent(files[6]).path)
        #expect(agentUnit.contains("ExecStart=/usr/bin/gps-locate agent") && agentUnit.contains("man:gps-locate-agent(1)"), "\(agentUnit)")
        let uninstall = try await runShell(make + " uninstall", settings: settings, timeout: 60)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(try installedFiles(root) == ["usr/bin/locate"], "only plocate's file is left")
        #expect(readWholeFile(plocate.path) == "#!/bin/sh\necho plocate\n")
    }

    /// The regular files under `root`, relative to it.
    private func installedFiles(_ root: URL) throws -> Set<String> {
        let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return Set(
            paths.filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            })
    }
}
