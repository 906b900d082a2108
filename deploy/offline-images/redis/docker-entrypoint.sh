#!/bin/sh
# The official image builds redis with protected mode off (it would refuse
# other containers when no password is set); add --protected-mode no instead.
set -e
case "$1" in -*|*.conf) set -- redis-server "$@" ;; esac
if [ "$1" = redis-server ]; then
  case " $* " in
    *" --protected-mode "*) ;;
    *) set -- "$@" --protected-mode no ;;
  esac
  if [ "$(id -u)" = 0 ]; then
    exec setpriv --reuid=redis --regid=redis --init-groups "$@"
  fi
fi
exec "$@"
