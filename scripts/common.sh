# Shared by the scripts beside it (sourced, not run): messages on stderr named after the script,
# usage errors (one line, exit 2), and the bot names a script is given. The sourcing script sets
# `script` (its name), `all_bots` and `chosen` first.

# The folder of ysgeso's repository holding the version its author submitted to the qualifier
# (Japanese for "qualifier, final version"): what peers.sh builds and simcmp.sh times.
ysgeso_folder=予選時最終版

say() { echo "$script: $*" >&2; }

usage_error() {
  say "$* (see --help)"
  exit 2
}

is_bot() { [[ " ${all_bots[*]} " == *" $1 "* ]]; }

# NAME: adds a bot named on the command line to `chosen` (once), or refuses the name.
choose_bot() {
  is_bot "$1" || usage_error "unknown bot '$1' (the bots: ${all_bots[*]})"
  [[ " ${chosen[*]-} " == *" $1 "* ]] || chosen+=("$1")
}

# The last case of a script's option loop: help (the script's own `usage`), an unknown option,
# or a bot's name.
other_argument() {
  case "$1" in
    -h | --help) usage; exit 0 ;;
    -*) usage_error "unknown option $1" ;;
    *) choose_bot "$1" ;;
  esac
}
