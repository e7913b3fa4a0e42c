import LocateSupport

/// Shell completion scripts for bash, zsh and fish, rendered from the command and option tables
/// like `--help`: a command's own options after it (`locate`'s without one), the actions after
/// `permission`, the commands after `help`, file names after `--replay`, `inside:`/`outside:` and
/// the settings' region names after `--until`, and the settings' app names after `--app`.
/// The tracked copies are in Scripts/completions/; a test checks they are what this renders.
enum Completions {
    /// `locate` itself (no command word), then every command.
    private static var commands: [CommandSpec] { [CommandTable.positions] + CommandTable.commands }

    /// The spellings of the options `command` takes.
    private static func flags(_ command: CommandSpec) -> [String] {
        command.name == "help" ? [] : OptionTable.options.filter { $0.applies(to: command) }.flatMap(\.flags)
    }

    /// The words a command takes after its name: permission's actions, help's commands.
    private static func words(_ command: CommandSpec) -> [String] {
        command.name == "help" ? CommandTable.topics : command.words
    }

    private static func flags(completing kind: ValueCompletion) -> [String] {
        OptionTable.options.filter { $0.value != nil && $0.completes == kind }.flatMap(\.flags)
    }

    /// The user's settings file, where the shells read the region and app names from.
    private static let settings = "${XDG_CONFIG_HOME:-$HOME/.config}/locate/locate.conf"

    /// A sed program printing the names of the settings' `[SECTION "NAME"]` sections.
    private static func sectionNames(_ section: String) -> String {
        "sed -n 's/^[[:space:]]*\\[\(section) \"\\([^\"]*\\)\"\\].*/\\1/p' \"\(settings)\" 2>/dev/null"
    }

    static func bash(program: String = "locate") -> String {
        let function = "_" + program.replacing("-", with: "_").replacing(".", with: "_")
        var lines = [
            "# bash completion for \(program); generated from the same source as `\(program) --help`.",
            "\(function)() {",
            "    local current=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD-1]} command= word names",
            "    # A colon splits words in bash: --until inside:NAME arrives as --until, inside, :, NAME.",
            "    if [[ $previous == : && ${COMP_WORDS[COMP_CWORD-3]} == --until ]]; then",
            "        COMPREPLY=($(compgen -W \"$(\(sectionNames("region")))\" -- \"$current\")); return",
            "    fi",
            "    case $previous in",
            "        \(flags(completing: .files).joined(separator: "|"))) COMPREPLY=($(compgen -f -- \"$current\")); compopt -o filenames 2>/dev/null; return ;;",
            "        \(flags(completing: .regionConditions).joined(separator: "|")))",
            "            names=$(\(sectionNames("region")))",
            "            COMPREPLY=($(compgen -W \"$(for word in $names; do printf 'inside:%s outside:%s ' \"$word\" \"$word\"; done)\" -- \"$current\")); return ;;",
            "        \(flags(completing: .appNames).joined(separator: "|"))) COMPREPLY=($(compgen -W \"$(\(sectionNames("app")))\" -- \"$current\")); return ;;",
            "        \(flags(completing: .nothing).joined(separator: "|"))) return ;;",
            "    esac",
            "    for word in \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"; do",
            "        case $word in \(CommandTable.commands.map(\.name).joined(separator: "|"))) command=$word; break ;; esac",
            "    done",
            "    if [[ -z $command && $COMP_CWORD -eq 1 && $current != -* ]]; then",
            "        COMPREPLY=($(compgen -W \"\(CommandTable.commands.map(\.name).joined(separator: " "))\" -- \"$current\")); return",
            "    fi",
            "    case $command in",
        ]
        for command in commands {
            let words = words(command)
            lines.append("        \(command.name.isEmpty ? "''" : command.name))")
            if !words.isEmpty {
                lines.append(
                    "            if [[ $previous == \(command.name) && $current != -* ]]; then COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$current\")); return; fi"
                )
            }
            lines.append("            COMPREPLY=($(compgen -W \"\(flags(command).joined(separator: " "))\" -- \"$current\")) ;;")
        }
        lines += ["    esac", "}", "complete -F \(function) \(program)", ""]
        return lines.joined(separator: "\n")
    }

    static func zsh(program: String = "locate") -> String {
        let function = "_" + program
        var lines = [
            "#compdef \(program)",
            "# zsh completion for \(program); generated from the same source as `\(program) --help`.",
            "\(function)() {",
            "    local previous=${words[CURRENT-1]} command= word",
            "    local -a names",
            "    case $previous in",
            "        \(flags(completing: .files).joined(separator: "|"))) _files; return ;;",
            "        \(flags(completing: .regionConditions).joined(separator: "|")))",
            "            names=(${(f)\"$(\(sectionNames("region")))\"})",
            "            compadd -- ${names/#/inside:} ${names/#/outside:}; return ;;",
            "        \(flags(completing: .appNames).joined(separator: "|"))) names=(${(f)\"$(\(sectionNames("app")))\"}); compadd -a names; return ;;",
            "        \(flags(completing: .nothing).joined(separator: "|"))) _message 'a value'; return ;;",
            "    esac",
            "    for word in ${words[2,CURRENT-1]}; do",
            "        case $word in (\(CommandTable.commands.map(\.name).joined(separator: "|"))) command=$word; break ;; esac",
            "    done",
            "    if [[ -z $command && $CURRENT -eq 2 && ${words[CURRENT]} != -* ]]; then",
            "        compadd -- \(CommandTable.commands.map(\.name).joined(separator: " ")); return",
            "    fi",
            "    case $command in",
        ]
        for command in commands {
            let words = words(command)
            lines.append("        (\(command.name.isEmpty ? "''" : command.name))")
            if !words.isEmpty {
                lines.append(
                    "            if [[ $previous == \(command.name) && ${words[CURRENT]} != -* ]]; then compadd -- \(words.joined(separator: " ")); return; fi"
                )
            }
            lines.append("            compadd -- \(flags(command).joined(separator: " ")) ;;")
        }
        lines += ["    esac", "}", "\(function) \"$@\"", ""]
        return lines.joined(separator: "\n")
    }

    static func fish(program: String = "locate") -> String {
        let function = "__" + program.replacing("-", with: "_").replacing(".", with: "_")
        var lines = [
            "# fish completion for \(program); generated from the same source as `\(program) --help`.",
            "# The command word given so far ('' for none).",
            "function \(function)_command",
            "    for word in (commandline -opc)[2..-1]",
            "        if contains -- $word \(CommandTable.commands.map(\.name).joined(separator: " "))",
            "            echo $word; return",
            "        end",
            "    end",
            "    echo ''",
            "end",
            "function \(function)_in",
            "    contains -- (\(function)_command) $argv",
            "end",
            "function \(function)_sections",
            "    set -l file (set -q XDG_CONFIG_HOME; and echo $XDG_CONFIG_HOME; or echo $HOME/.config)/locate/locate.conf",
            "    test -r $file; and string replace -rf '^\\s*\\['$argv[1]' \"([^\"]*)\"\\].*' '$1' <$file",
            "end",
            "function \(function)_until",
            "    for name in (\(function)_sections region); echo inside:$name; echo outside:$name; end",
            "end",
            "complete -c \(program) -f",
            "complete -c \(program) -n 'test (\(function)_command) = \"\"; and test (count (commandline -opc)) -eq 1' -a '\(CommandTable.commands.map(\.name).joined(separator: " "))'",
        ]
        for command in commands where !words(command).isEmpty {
            lines.append(
                "complete -c \(program) -n '__fish_seen_subcommand_from \(command.name); and test (commandline -opc)[-1] = \(command.name)' -a '\(words(command).joined(separator: " "))'"
            )
        }
        for option in OptionTable.options {
            let scopes = commands.filter { $0.name != "help" && option.applies(to: $0) }.map { $0.name.isEmpty ? "\"\"" : $0.name }
            var line = "complete -c \(program) -n '\(function)_in \(scopes.joined(separator: " "))'"
            for flag in option.flags {
                line += flag.hasPrefix("--") ? " -l \(flag.dropFirst(2))" : " -s \(flag.dropFirst())"
            }
            switch (option.value, option.completes) {
            case (nil, _): break
            case (_, .files): line += " -r -F"
            case (_, .regionConditions): line += " -x -a '(\(function)_until)'"
            case (_, .appNames): line += " -x -a '(\(function)_sections app)'"
            case (_, .nothing): line += " -x"
            }
            line += " -d '" + option.help.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
