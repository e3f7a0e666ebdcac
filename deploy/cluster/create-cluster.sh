#!/bin/sh
# Make the Redis Cluster once: three primaries and one replica each, from the nodes named in $NODES
# (host:port, the primaries first). Does nothing when the cluster is already made (a restart).
set -eu
first=${NODES%% *}
host=${first%:*}
port=${first#*:}
until redis-cli -h "$host" -p "$port" ping >/dev/null 2>&1; do sleep 1; done
if redis-cli -h "$host" -p "$port" cluster info | grep -q '^cluster_state:ok'; then
    echo "the cluster is made already"
    exit 0
fi
addresses=""
for node in $NODES; do
    h=${node%:*}
    p=${node#*:}
    until redis-cli -h "$h" -p "$p" ping >/dev/null 2>&1; do sleep 1; done
    ip=$(getent hosts "$h" | awk '{print $1; exit}')  # redis-cli --cluster create wants addresses
    addresses="$addresses $ip:$p"
done
# shellcheck disable=SC2086
redis-cli --cluster create $addresses --cluster-replicas 1 --cluster-yes
until redis-cli -h "$host" -p "$port" cluster info | grep -q '^cluster_state:ok'; do sleep 1; done
echo "the cluster is made"
