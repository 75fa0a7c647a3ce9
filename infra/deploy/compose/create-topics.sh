#!/usr/bin/env bash
# Creates the platform's topics, and their dead-letter topics (<topic>.<consumer group>.dlt), from
# helm/lipa/topics.yaml, the one declaration of topics; existing topics are left alone. Run by the compose file's
# kafka-topics service with the Kafka image's kafka-topics.sh; --print prints the commands instead (the tests use it).
#   create-topics.sh <topics.yaml> <bootstrap servers> [--print]
set -euo pipefail
file=$1 bootstrap=$2 print=${3:-}
KAFKA_TOPICS=${KAFKA_TOPICS:-/opt/kafka/bin/kafka-topics.sh}

# topics.yaml in the shape it has: defaults, then a list of topics with name, cleanupPolicy, consumerGroups, and
# optional partitions/replicationFactor/minInsyncReplicas/retentionMs overriding the defaults
rows=$(awk '
  function clean(v) { sub(/[ \t]*#.*/, "", v); gsub(/^[ \t]+|[ \t]+$/, "", v); return v }
  function emit() { if (name != "") print name, (p ? p : dp), (r ? r : dr), (m ? m : dm), (ret ? ret : dret), (cp ? cp : "delete"), dlret, (groups == "" ? "-" : groups) }
  /^defaults:/ { section = "defaults"; next }
  /^topics:/ { section = "topics"; next }
  section == "defaults" && /^[ \t]+partitions:/ { dp = clean(substr($0, index($0, ":") + 1)) }
  section == "defaults" && /^[ \t]+replicationFactor:/ { dr = clean(substr($0, index($0, ":") + 1)) }
  section == "defaults" && /^[ \t]+minInsyncReplicas:/ { dm = clean(substr($0, index($0, ":") + 1)) }
  section == "defaults" && /^[ \t]+retentionMs:/ { dret = clean(substr($0, index($0, ":") + 1)) }
  section == "defaults" && /^[ \t]+deadLetterRetentionMs:/ { dlret = clean(substr($0, index($0, ":") + 1)) }
  section == "topics" && /^[ \t]*- name:/ { emit(); name = clean(substr($0, index($0, ":") + 1)); p = r = m = ret = cp = ""; groups = "" }
  section == "topics" && /^[ \t]+partitions:/ { p = clean(substr($0, index($0, ":") + 1)) }
  section == "topics" && /^[ \t]+replicationFactor:/ { r = clean(substr($0, index($0, ":") + 1)) }
  section == "topics" && /^[ \t]+minInsyncReplicas:/ { m = clean(substr($0, index($0, ":") + 1)) }
  section == "topics" && /^[ \t]+retentionMs:/ { ret = clean(substr($0, index($0, ":") + 1)) }
  section == "topics" && /^[ \t]+cleanupPolicy:/ { cp = clean(substr($0, index($0, ":") + 1)) }
  # a flow sequence, on one line or continued over several until its "]"
  section == "topics" && /^[ \t]+consumerGroups:/ { g = clean(substr($0, index($0, ":") + 1)); ingroups = (g !~ /]/); gsub(/[][ ]/, "", g); groups = g; next }
  ingroups { g = clean($0); ingroups = (g !~ /]/); gsub(/[][ ]/, "", g); groups = groups (groups ~ /,$/ || g == "" ? "" : ",") g; next }
  END { emit() }
' "$file")
[[ -n $rows ]] || { echo "create-topics: no topics in $file" >&2; exit 1; }

create() { # create <topic> <partitions> <replicas> <config...>
  local topic=$1 partitions=$2 replicas=$3; shift 3
  local cmd=("$KAFKA_TOPICS" --bootstrap-server "$bootstrap" --create --if-not-exists --topic "$topic"
    --partitions "$partitions" --replication-factor "$replicas")
  local c; for c in "$@"; do cmd+=(--config "$c"); done
  if [[ $print == --print ]]; then printf '%s\n' "${cmd[*]}"; else "${cmd[@]}"; fi
}

while read -r name partitions replicas minisr retention policy dlretention groups; do
  config=("cleanup.policy=$policy" "min.insync.replicas=$minisr" unclean.leader.election.enable=false)
  [[ $policy == compact ]] || config+=("retention.ms=$retention")
  create "$name" "$partitions" "$replicas" "${config[@]}"
  [[ $groups == - ]] && continue
  IFS=, read -r -a list <<<"$groups"
  for group in "${list[@]}"; do
    create "$name.$group.dlt" "$partitions" "$replicas" cleanup.policy=delete "min.insync.replicas=$minisr" \
      unclean.leader.election.enable=false "retention.ms=$dlretention"
  done
done <<<"$rows"
