# hon.bash — bash completion for the `hon` program, installed by meson.build as
# share/bash-completion/completions/hon: its subcommands, its global options, the subcommand
# options of test, fmt and diff, file names where an option or command takes a file
# (.hon rules, .scn boards, .play scripts, directories for --rules; hidden ones only when the
# word starts with '.'), and the editions and variants of the rules the command line names
# (after --edition and --variant, and as diff's settings) and a variant's readings (after
# `--variant NAME=`), asked of hon itself through the REPL's `edition` and `variant` listings
# (the readings: through the error E414, which lists them). The lists follow repl/main.c's usage
# (docs/spec/repl.md); tests/install/run.py checks that every command and option named there
# is offered here.

# The rules options given so far (--rules DIR, --load FILE, --no-rules), for asking hon the
# names those rules declare.
_hon_rules_options()
{
    local i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --rules | --load) printf '%s\n' "${words[i]}" "${words[i + 1]}"; ((i++)) ;;
            --no-rules) printf '%s\n' --no-rules ;;
        esac
    done
}

# Names from one of the REPL's listings (repl.md §2): `edition` prints `* name (extends ...)
# — title` lines, `variant` prints `name = reading  — description` lines.
_hon_names()
{
    local opts
    mapfile -t opts < <(_hon_rules_options)
    printf '%s\n' "$1" | "${words[0]}" "${opts[@]}" 2>/dev/null |
        sed -n 's/^[* ] \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p; s/^\([A-Za-z_][A-Za-z0-9_]*\) = .*/\1/p'
}

# The readings of variant $1, from the error a reading it does not have gets (E414 lists them:
# `...; its readings: a, b`).
_hon_readings()
{
    local opts
    mapfile -t opts < <(_hon_rules_options)
    printf 'variant %s -\n' "$1" | "${words[0]}" "${opts[@]}" 2>&1 >/dev/null |
        sed -n 's/.*; its readings: //p' | head -n 1 | tr -d ',' | tr ' ' '\n'
}

# Files (with _filedir's pattern, if any) and directories, hidden ones only when the word
# starts with '.' (a checkout's .git and .ci hold no rules).
_hon_files()
{
    _filedir "$@"
    if [[ $cur != .* && $cur != */.* ]]; then
        local i kept=()
        for i in "${COMPREPLY[@]}"; do
            [[ ${i##*/} == .* ]] || kept+=("$i")
        done
        COMPREPLY=("${kept[@]}")
    fi
}

_hon()
{
    local cur prev words cword
    _init_completion || return

    local commands="eval why odds do move reach play check test rules show dis los draw svg
        diff snapshot coverage lint lsp fmt help version"
    local options="--rules --no-rules --load --board --edition --variant --seed --max-steps
        --budget --max-depth --max-list --max-memory --json --bail --help --version"

    # --variant NAME=READING: the readings of NAME, whether bash split the word at its '='
    # (COMP_WORDBREAKS holds '=': `--variant`, NAME, `=`, READING) or not. With the cursor
    # right after the '=', bash's words end at the `=` itself (no empty word after it), and
    # _init_completion gives prev=NAME, cur="" (rev12d 3).
    if [[ ${words[cword]} == = && $cword -ge 2 && ${words[cword - 2]} == --variant ]]; then
        COMPREPLY=($(compgen -W "$(_hon_readings "$prev")" -- ""))
        return
    fi
    if [[ $prev == = && $cword -ge 3 && ${words[cword - 3]} == --variant ]]; then
        COMPREPLY=($(compgen -W "$(_hon_readings "${words[cword - 2]}")" -- "$cur"))
        return
    fi
    if [[ $prev == --variant && $cur == *=* ]]; then
        COMPREPLY=($(compgen -P "${cur%%=*}=" -W "$(_hon_readings "${cur%%=*}")" -- "${cur#*=}"))
        return
    fi

    case $prev in
        --rules)
            _hon_files -d
            return ;;
        --load)
            _hon_files hon
            return ;;
        --board | --witness)
            _hon_files scn
            return ;;
        --questions)
            _hon_files
            return ;;
        --edition)
            COMPREPLY=($(compgen -W "$(_hon_names edition)" -- "$cur"))
            return ;;
        --variant)
            if [[ $cur != *=* ]]; then
                COMPREPLY=($(compgen -S = -W "$(_hon_names variant)" -- "$cur"))
                compopt -o nospace 2>/dev/null
            fi
            return ;;
        --seed | --max-steps | --budget | --max-depth | --max-list | --max-memory | \
            --filter | --cap | --ints | --traces | --width | --rule | --query | \
            --max-size | --seconds)
            return ;;
    esac

    # the subcommand: the first word that is neither an option nor an option's argument
    local i cmd=""
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --rules | --load | --board | --edition | --variant | --seed | --max-steps | \
                --budget | --max-depth | --max-list | --max-memory)
                ((i++)) ;;
            -*) ;;
            *) cmd=${words[i]}; break ;;
        esac
    done

    case $cmd in
        "")
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$options" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "$commands" -- "$cur"))
            fi ;;
        help)
            COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
        check | test)
            if [[ $cur == -* && $cmd == test ]]; then
                COMPREPLY=($(compgen -W "-v --verbose --filter --json" -- "$cur"))
            else
                _hon_files '@(hon|scn)'
            fi ;;
        svg | reach)
            _hon_files svg ;;
        lint)
            _hon_files '@(hon)' ;;
        play)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--board --seed --bail" -- "$cur"))
            else
                _hon_files play
            fi ;;
        fmt)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--check --diff --json" -- "$cur"))
            else
                _hon_files '@(hon)'
            fi ;;
        coverage)
            case $prev in
                --inventory) _hon_files md ;;
                --tests) _hon_files -d ;;
                *) COMPREPLY=($(compgen -W "--inventory --tests" -- "$cur")) ;;
            esac ;;
        lsp)
            case $prev in
                --inventory) _hon_files md ;;
                *) COMPREPLY=($(compgen -W "--inventory" -- "$cur")) ;;
            esac ;;
        snapshot)
            if ((cword == i + 1)); then
                COMPREPLY=($(compgen -W "record check" -- "$cur"))
            else
                _hon_files
            fi ;;
        diff)
            if [[ $cur != -* ]]; then
                COMPREPLY=($(compgen -W "$(_hon_names edition)" -- "$cur"))
                return
            fi
            COMPREPLY=($(compgen -W "--variants --search --board --questions
                --no-bundled-boards --no-tests --no-finite --cap --ints --traces --width --json
                --rule --query --max-size --seconds --seed --witness" -- "$cur")) ;;
    esac
} &&
    complete -F _hon hon
