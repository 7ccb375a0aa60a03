# hon.bash — bash completion for the `hon` program, installed by meson.build as
# share/bash-completion/completions/hon: its subcommands, its global options, the subcommand
# options of test, fmt and diff, and file names where an option or command takes a file
# (.hon rules, .scn boards, .play scripts, directories for --rules). The lists follow repl/main.c's usage
# (docs/spec/repl.md); tests/install/run.py checks that every command and option named there
# is offered here.

_hon()
{
    local cur prev words cword
    _init_completion || return

    local commands="eval why odds do move reach play check test rules show dis los draw svg
        diff snapshot coverage lint lsp fmt help version"
    local options="--rules --no-rules --load --board --edition --variant --seed --max-steps
        --budget --max-depth --max-list --max-memory --json --bail --help --version"

    case $prev in
        --rules)
            _filedir -d
            return ;;
        --load)
            _filedir hon
            return ;;
        --board | --witness)
            _filedir scn
            return ;;
        --questions)
            _filedir
            return ;;
        --edition | --variant | --seed | --max-steps | --budget | --max-depth | --max-list | \
            --max-memory | --filter | --cap | --ints | --traces | --width | --rule | --query | \
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
                _filedir '@(hon|scn)'
            fi ;;
        svg | reach)
            _filedir svg ;;
        lint)
            _filedir '@(hon)' ;;
        play)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--board --seed --bail" -- "$cur"))
            else
                _filedir play
            fi ;;
        fmt)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--check --diff --json" -- "$cur"))
            else
                _filedir '@(hon)'
            fi ;;
        coverage)
            case $prev in
                --inventory) _filedir md ;;
                --tests) _filedir -d ;;
                *) COMPREPLY=($(compgen -W "--inventory --tests" -- "$cur")) ;;
            esac ;;
        lsp)
            case $prev in
                --inventory) _filedir md ;;
                *) COMPREPLY=($(compgen -W "--inventory" -- "$cur")) ;;
            esac ;;
        snapshot)
            if ((cword == i + 1)); then
                COMPREPLY=($(compgen -W "record check" -- "$cur"))
            else
                _filedir
            fi ;;
        diff)
            COMPREPLY=($(compgen -W "--variants --search --board --questions
                --no-bundled-boards --no-tests --no-finite --cap --ints --traces --width --json
                --rule --query --max-size --seconds --seed --witness" -- "$cur")) ;;
    esac
} &&
    complete -F _hon hon
