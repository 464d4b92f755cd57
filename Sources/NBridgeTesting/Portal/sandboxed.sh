#!/bin/sh
# Runs "$@" as xdg-desktop-portal sees a Flatpak app: with a root of its own holding a
# /.flatpak-info that names the app $SANDBOX_APP_ID (the portal reads /proc/PID/root/.flatpak-info),
# everything else bind-mounted from the host. The mounts live in a private mount namespace
# (unshare -m; as a user namespace's root when not run as root) and go with the process; the
# empty mount point is made under $SANDBOX_DIR (the test's folder, removed with it).
set -e
root=$(mktemp -d "${SANDBOX_DIR:-${TMPDIR:-/tmp}}/sandbox-root.XXXXXX")
user=
[ "$(id -u)" = 0 ] || user=--map-root-user
exec unshare $user --mount --propagation private sh -c '
  root=$1
  shift
  mount -t tmpfs tmpfs "$root"
  for entry in /*; do
    name=${entry#/}
    if [ -L "$entry" ]; then
      ln -s "$(readlink "$entry")" "$root/$name"
    elif [ -d "$entry" ]; then
      mkdir "$root/$name"
      mount --rbind "$entry" "$root/$name"
    fi
  done
  printf "[Application]\nname=%s\n" "$SANDBOX_APP_ID" > "$root/.flatpak-info"
  exec chroot "$root" /usr/bin/env -C "$PWD" "$@"
' sh "$root" "$@"
