import Foundation
import Glibc
import LocateSupport
import Testing

/// The walk that decides whether the way to a settings file, a policy or the cache can be
/// trusted: every directory that holds a component (those holding links included) is checked
/// before the walk goes on, links are followed as the kernel follows them, and a sticky
/// directory like `/tmp` is trusted above the file's own directory, never as it.
struct TrustedPathTests {
    /// A directory of this test's own under the system's temporary directory (root's sticky
    /// `/tmp`, an ancestor the walk trusts), removed at the end by `clean()`.
    private let base = FileManager.default.temporaryDirectory.appendingPathComponent("locate-walk-\(UUID().uuidString)").path

    private func makeDirectory(_ relative: String, mode: mode_t = 0o755) throws -> String {
        let path = base + "/" + relative
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(chmod(path, mode) == 0)
        return path
    }

    private func link(_ relative: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: base + "/" + relative, withDestinationPath: target)
    }

    private func clean() {
        // A test may leave a directory of mode 000 or another user's behind: chmod before removing.
        if let names = FileManager.default.enumerator(atPath: base)?.allObjects as? [String] {
            for name in names { chmod(base + "/" + name, 0o755) }
        }
        try? FileManager.default.removeItem(atPath: base)
    }

    /// The refusal `checkPath` throws for `path`, or `nil` when it trusts it.
    private func refusal(
        _ path: String, to end: TrustedFile.PathEnd = .file, owner: TrustedFile.Owner = .userOrRoot, creating: Bool = false
    ) -> String? {
        do {
            try TrustedFile.checkPath(path, to: end, owner: owner, creatingDirectories: creating)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aPlainWayIsTrustedWhetherTheFileExistsOrNot() throws {
        defer { clean() }
        let directory = try makeDirectory("config/locate")
        #expect(try TrustedFile.checkPath(directory + "/locate.conf", to: .file, owner: .userOrRoot) == directory + "/locate.conf")
        #expect(FileManager.default.createFile(atPath: directory + "/locate.conf", contents: Data()))
        #expect(try TrustedFile.checkPath(directory + "//./locate.conf", to: .file, owner: .userOrRoot) == directory + "/locate.conf")
    }

    /// The flaw the walk closes: `realpath` first, then checking only where the path leads,
    /// never sees a directory that holds a link on the way.
    @Test(arguments: ["0777", "0775"])
    func aDirectoryHoldingALinkOnTheWayIsChecked(mode: String) throws {
        defer { clean() }
        let real = try makeDirectory("real/locate")
        #expect(FileManager.default.createFile(atPath: real + "/locate.conf", contents: Data()))
        let shared = try makeDirectory("shared", mode: mode_t(mode, radix: 8) ?? 0)
        try link("shared/cfg", to: base + "/real")
        let message = try #require(refusal(shared + "/cfg/locate/locate.conf"))
        #expect(
            message
                == "\(shared) is writable by \(mode == "0777" ? "others" : "its group") (mode \(mode.dropFirst())), who could replace what it holds; run chmod go-w \(shared)"
        )
        #expect(refusal(real + "/locate.conf") == nil, "the same file is trusted on a way no one else can change")
    }

    @Test func aChainOfLinksIsFollowedAndEveryHolderOnItChecked() throws {
        defer { clean() }
        let final = try makeDirectory("final/locate")
        _ = try makeDirectory("one")
        _ = try makeDirectory("two")
        _ = try makeDirectory("three")
        try link("one/a", to: base + "/two/b")
        try link("two/b", to: "../three/c")
        try link("three/c", to: base + "/final")
        #expect(try TrustedFile.checkPath(base + "/one/a/locate/locate.conf", to: .file, owner: .userOrRoot) == final + "/locate.conf")
        // The middle of the chain becomes writable by others: the way is refused there.
        chmod(base + "/two", 0o777)
        #expect(refusal(base + "/one/a/locate/locate.conf")?.hasPrefix("\(base)/two is writable by others (mode 777)") == true)
    }

    @Test func relativeLinksResolveFromTheDirectoryThatHoldsThem() throws {
        defer { clean() }
        let dotfiles = try makeDirectory("home/dotfiles/locate")
        _ = try makeDirectory("home/config/locate")
        _ = try makeDirectory("deep/er")
        try link("home/config/locate/locate.conf", to: "../../dotfiles/locate/./locate.conf")
        #expect(
            try TrustedFile.checkPath(base + "/home/config/locate/locate.conf", to: .file, owner: .userOrRoot)
                == dotfiles + "/locate.conf")
        // `..` after a link goes up from where the link leads, as the kernel does.
        try link("home/up", to: base + "/deep/er")
        #expect(try TrustedFile.checkPath(base + "/home/up/../x.conf", to: .file, owner: .userOrRoot) == base + "/deep/x.conf")
        #expect(
            try TrustedFile.checkPath(base + "/../../../" + base + "/deep/x.conf", to: .file, owner: .userOrRoot) == base + "/deep/x.conf")
    }

    @Test func linkLoopsAndLongChainsAreRefused() throws {
        defer { clean() }
        _ = try makeDirectory("loop")
        try link("loop/a", to: "b")
        try link("loop/b", to: "a")
        try link("loop/self", to: "self")
        for name in ["a", "self"] {
            let message = try #require(refusal(base + "/loop/\(name)/locate.conf"), "\(name)")
            #expect(message.hasPrefix("more than 40 symbolic links lead on from \(base)/loop/"), "\(message)")
        }
        // 40 links on the way are followed, as the kernel follows them; the 41st is refused.
        _ = try makeDirectory("chain/end")
        try link("chain/l0", to: "end")
        for index in 1...40 { try link("chain/l\(index)", to: "l\(index - 1)") }
        #expect(refusal(base + "/chain/l39/locate.conf") == nil)
        #expect(refusal(base + "/chain/l40/locate.conf")?.hasPrefix("more than 40 symbolic links") == true)
    }

    @Test func aStickyDirectoryOfRootsIsTrustedAboveTheFilesOwnDirectoryOnly() throws {
        guard geteuid() == 0 else { return }  // only root can make a sticky directory of root's here
        defer { clean() }
        let sticky = try makeDirectory("sticky", mode: 0o1777)
        let own = try makeDirectory("sticky/mine/locate", mode: 0o700)
        #expect(refusal(own + "/locate.conf") == nil, "sticky above the file's own directory")
        #expect(refusal(sticky + "/mine", to: .privateDirectory, owner: .user) == nil, "sticky above a private directory")
        #expect(
            refusal(sticky + "/locate.conf")
                == "\(sticky) is writable by others (mode 1777), who could put files of their own beside yours; keep the file in a directory of your own"
        )
        // As the file's own directory through a link, as ~/.config/locate -> /some/shared/dir.
        _ = try makeDirectory("config")
        try link("config/locate", to: sticky)
        #expect(refusal(base + "/config/locate/locate.conf")?.hasPrefix("\(sticky) is writable by others (mode 1777)") == true)
        // A link to the file in a sticky directory is trusted only when it is one's own.
        try link("sticky/locate.conf", to: own + "/locate.conf")
        #expect(refusal(sticky + "/locate.conf") == nil)
        #expect(lchown(sticky + "/locate.conf", 65534, 65534) == 0)
        #expect(
            refusal(sticky + "/locate.conf")
                == "\(sticky)/locate.conf is a symbolic link of another user's (uid 65534), who could point it elsewhere; keep only your own links on the way"
        )
        // Sticky, but not root's: not trusted anywhere.
        #expect(chown(sticky, 65534, 65534) == 0)
        #expect(refusal(own + "/locate.conf")?.hasPrefix("\(sticky) is owned by another user (uid 65534)") == true)
    }

    @Test func aDirectoryOfAnotherUsersOnTheWayIsRefused() throws {
        guard geteuid() == 0 else { return }  // chown needs root
        defer { clean() }
        let theirs = try makeDirectory("theirs")
        _ = try makeDirectory("mine/locate")
        try link("theirs/cfg", to: base + "/mine")
        #expect(chown(theirs, 65534, 65534) == 0)
        #expect(
            refusal(theirs + "/cfg/locate/locate.conf")
                == "\(theirs) is owned by another user (uid 65534), who could replace what it holds; keep the file in a directory of your own"
        )
        #expect(refusal(theirs + "/cfg", to: .privateDirectory, owner: .user)?.hasPrefix("\(theirs) is owned by another user") == true)
        // A policy rests on root's directories alone.
        #expect(
            refusal(theirs + "/cfg/locate/policy.conf", owner: .root)
                == "\(theirs) is not owned by root (uid 65534), who could replace what it holds; a policy must rest on root's directories alone"
        )
        #expect(refusal(base + "/mine/locate/policy.conf", owner: .root) == nil)
    }

    @Test func aMissingWayIsCheckedUpToTheNearestDirectoryThatExists() throws {
        defer { clean() }
        let open = try makeDirectory("open", mode: 0o777)
        let missing = open + "/cfg/locate/locate.conf"
        #expect(refusal(missing)?.hasPrefix("\(open) is writable by others (mode 777)") == true, "the file need not exist")
        #expect(refusal(missing, creating: true) != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: open).isEmpty, "nothing is made under it")

        let mine = try makeDirectory("mine")
        #expect(
            try TrustedFile.checkPath(mine + "/cfg/locate/locate.conf", to: .file, owner: .userOrRoot) == mine + "/cfg/locate/locate.conf")
        #expect(!FileManager.default.fileExists(atPath: mine + "/cfg"), "nothing is made unless asked")
        #expect(
            try TrustedFile.checkPath(mine + "/cfg/locate/locate.conf", to: .file, owner: .userOrRoot, creatingDirectories: true)
                == mine + "/cfg/locate/locate.conf")
        for directory in [mine + "/cfg", mine + "/cfg/locate"] {
            var status = stat()
            #expect(lstat(directory, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR && status.st_mode & 0o777 == 0o700)
            #expect(status.st_uid == geteuid())
        }
        #expect(!FileManager.default.fileExists(atPath: mine + "/cfg/locate/locate.conf"), "the file is not made")
        // Through a link that points where nothing is yet, the directories are made where it points.
        try link("mine/dangling", to: "later/locate")
        #expect(
            try TrustedFile.checkPath(mine + "/dangling/locate.conf", to: .file, owner: .userOrRoot, creatingDirectories: true)
                == mine + "/later/locate/locate.conf")
        #expect(FileManager.default.fileExists(atPath: mine + "/later/locate"))
        // A private directory is made by its opener, not by the walk.
        #expect(refusal(mine + "/cache/locate", to: .privateDirectory, owner: .user, creating: true) == nil)
        #expect(FileManager.default.fileExists(atPath: mine + "/cache") && !FileManager.default.fileExists(atPath: mine + "/cache/locate"))
    }

    @Test func aPrivateDirectoryIsNotFollowedAtItsEnd() throws {
        defer { clean() }
        _ = try makeDirectory("elsewhere")
        _ = try makeDirectory("cache")
        try link("cache/locate", to: base + "/elsewhere")
        // The walk leaves the link to its opener (DirectoryHandle refuses a link there).
        #expect(try TrustedFile.checkPath(base + "/cache/locate", to: .privateDirectory, owner: .user) == base + "/cache/locate")
        #expect(throws: DirectoryHandle.Failure.self) { try DirectoryHandle(path: base + "/cache/locate", create: false, isPrivate: true) }
    }

    @Test func aFileOnTheWayAndAWayThatEndsInNoNameAreRefused() throws {
        defer { clean() }
        let directory = try makeDirectory("dir")
        #expect(FileManager.default.createFile(atPath: directory + "/file", contents: Data()))
        #expect(refusal(directory + "/file/locate.conf") == "\(directory)/file is not a directory, and the path goes on through it")
        #expect(refusal(directory + "/..") == "\(directory)/.. does not end in a name")
    }

    @Test func aPrivateDirectoryUnderADirectoryOthersCanWriteIsRefusedBeforeAnythingIsMade() throws {
        defer { clean() }
        let open = try makeDirectory("open", mode: 0o777)
        #expect {
            try DirectoryHandle(path: open + "/cache/locate", create: true, isPrivate: true)
        } throws: { error in
            (error as? DirectoryHandle.Failure)?.description.hasPrefix("cannot be trusted: \(open) is writable by others (mode 777)")
                == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: open).isEmpty)
    }
}
