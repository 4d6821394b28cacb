#!/usr/bin/env bash
# Starts the local control plane for development: the API server with an
# embedded etcd (data in _output/local), and every other daemon that is built.
# The API server authorizes with Node,RBAC and admits with NodeRestriction
# on; each daemon and each simulated node reaches it with its own client
# certificate (hack/devcerts), never as system:masters. The metrics server
# is registered as the aggregated resource metrics API, and the script waits
# for the nodes' first metrics, so kubectl top works once it prints the admin
# kubeconfig. Ctrl-C (or SIGTERM) stops all.
#
# Environment: LOCAL_DIR (_output/local), PLATFORM_BIN_DIR (_output/bin),
# NODES (3), NODE_PREFIX, API_PORT (6443), SCHEDULER_PORT (10259),
# SCHEDULER_INSECURE_PORT (10251; 0 turns it off),
# CONTROLLER_MANAGER_PORT (10257), CLOUD_CONTROLLER_MANAGER_PORT (10258),
# METRICS_SERVER_PORT (10250), SIMCLOUD_CONTROL_PORT (10270),
# METRIC_RESOLUTION (15s), CLUSTER_CIDR (10.0.0.0/8), KUBECTL (kubectl).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${PLATFORM_BIN_DIR:-$PWD/_output/bin}
mkdir -p "${LOCAL_DIR:-_output/local}"
LOCAL=$(cd "${LOCAL_DIR:-_output/local}" && pwd)
PORT=${API_PORT:-6443}
KUBECONFIG_OUT=$LOCAL/admin.kubeconfig
mkdir -p "$LOCAL/logs"
NODES=${NODES:-3}
go run ./hack/devcerts -dir "$LOCAL/certs" -nodes "$NODES" -node-prefix "${NODE_PREFIX:-simnode-}"

pids=()
cleanup() {
	trap - INT TERM EXIT
	echo; echo "stopping..."
	# The API server (first) stops last, so the others can release their
	# leader locks and flush their events on the way out.
	local i
	for ((i = ${#pids[@]} - 1; i >= 1; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
	for ((i = ${#pids[@]} - 1; i >= 1; i--)); do wait "${pids[i]}" 2>/dev/null || true; done
	kill "${pids[0]}" 2>/dev/null || true
	wait 2>/dev/null || true
}
trap cleanup INT TERM EXIT

"$BIN/platform-apiserver" \
	--data-dir "$LOCAL/etcd" \
	--tls-cert-file "$LOCAL/certs/apiserver.crt" \
	--tls-private-key-file "$LOCAL/certs/apiserver.key" \
	--client-ca-file "$LOCAL/certs/ca.crt" \
	--authorization-mode Node,RBAC \
	--enable-admission-plugins NodeRestriction \
	--service-account-issuer "https://127.0.0.1:$PORT" \
	--service-account-signing-key-file "$LOCAL/certs/sa.key" \
	--service-account-key-file "$LOCAL/certs/sa.key" \
	--requestheader-client-ca-file "$LOCAL/certs/front-proxy-ca.crt" \
	--requestheader-allowed-names front-proxy-client \
	--requestheader-username-headers X-Remote-User \
	--requestheader-group-headers X-Remote-Group \
	--requestheader-extra-headers-prefix X-Remote-Extra- \
	--proxy-client-cert-file "$LOCAL/certs/front-proxy-client.crt" \
	--proxy-client-key-file "$LOCAL/certs/front-proxy-client.key" \
	--bind-address 127.0.0.1 \
	--secure-port "$PORT" \
	>"$LOCAL/logs/apiserver.log" 2>&1 &
pids+=($!)

echo "waiting for the API server on https://127.0.0.1:$PORT ..."
for i in $(seq 1 120); do
	# The body of a failing /readyz lists the checks that passed ("[+]ping
	# ok"): only an answer of exactly "ok" means ready, and only then are
	# the bootstrap roles the daemons and nodes act under in place.
	if [ "$(curl -sf --cacert "$LOCAL/certs/ca.crt" --cert "$LOCAL/certs/admin.crt" --key "$LOCAL/certs/admin.key" \
		"https://127.0.0.1:$PORT/readyz" 2>/dev/null)" = ok ]; then break; fi
	if ! kill -0 "${pids[0]}" 2>/dev/null; then
		echo "the API server exited; its log:"; tail -n 30 "$LOCAL/logs/apiserver.log"; exit 1
	fi
	sleep 0.5
done

b64() { base64 -w0 < "$1"; }
# kubeconfig NAME CERT: writes $LOCAL/NAME.kubeconfig, authenticating with
# the client pair $LOCAL/certs/CERT.{crt,key}.
kubeconfig() {
	cat > "$LOCAL/$1.kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: https://127.0.0.1:$PORT
    certificate-authority-data: $(b64 "$LOCAL/certs/ca.crt")
users:
- name: $1
  user:
    client-certificate-data: $(b64 "$LOCAL/certs/$2.crt")
    client-key-data: $(b64 "$LOCAL/certs/$2.key")
contexts:
- name: local
  context:
    cluster: local
    user: $1
current-context: local
KC
}
kubeconfig admin admin
for d in scheduler controller-manager cloud-controller-manager metrics-server; do kubeconfig "$d" "$d"; done
kubeconfig simnode "nodes/${NODE_PREFIX:-simnode-}0"

# The other daemons: each reaches the API server with its own kubeconfig,
# and uses it too for delegated authentication and authorization of its own
# secure port (its bootstrap role may create TokenReviews and
# SubjectAccessReviews and read extension-apiserver-authentication).
daemon() {
	local name=$1; shift
	[ -x "$BIN/platform-$name" ] || return 0
	local kc=$LOCAL/$name.kubeconfig
	"$BIN/platform-$name" --kubeconfig "$kc" \
		--authentication-kubeconfig "$kc" \
		--authorization-kubeconfig "$kc" \
		--bind-address 127.0.0.1 "$@" \
		>"$LOCAL/logs/$name.log" 2>&1 &
	pids+=($!)
	echo "started platform-$name (log: $LOCAL/logs/$name.log)"
}
# metrics_up grants the metrics server its RBAC, starts it, and registers
# it as the aggregated metrics.platform.io and metrics.k8s.io APIs when
# the API server serves apiregistration.platform.io. An Endpoints may not
# name a loopback address, so the Service is an ExternalName (localhost),
# which the API server resolves itself.
metrics_up() {
	local port=${METRICS_SERVER_PORT:-10250}
	local k=("${KUBECTL:-kubectl}" --kubeconfig "$KUBECONFIG_OUT")
	"${k[@]}" apply -f deploy/addons/metrics-server/rbac.yaml >"$LOCAL/logs/metrics-server-setup.log" 2>&1 ||
		{ echo "metrics server RBAC not applied; see $LOCAL/logs/metrics-server-setup.log"; return 0; }
	daemon metrics-server --secure-port "$port" --cert-dir "$LOCAL/metrics-server" \
		--metric-resolution "${METRIC_RESOLUTION:-15s}" --kubelet-use-node-status-port \
		--kubelet-preferred-address-types InternalIP --kubelet-insecure-tls
	if ! "${k[@]}" get --raw /apis/apiregistration.platform.io/v1 >/dev/null 2>&1; then
		echo "the API server does not serve apiregistration.platform.io: the metrics APIs are not registered (kubectl top needs them)"
		return 0
	fi
	{
		cat <<SVC
apiVersion: v1
kind: Service
metadata: {name: platform-metrics-server, namespace: platform-system}
spec:
  type: ExternalName
  externalName: localhost
  ports: [{name: https, port: $port, protocol: TCP}]
SVC
		echo "---"
		sed "s/port: 443/port: $port/" deploy/addons/metrics-server/apiservice.yaml
	} | "${k[@]}" apply -f - >>"$LOCAL/logs/metrics-server-setup.log" 2>&1 ||
		{ echo "the metrics APIs were not registered; see $LOCAL/logs/metrics-server-setup.log"; return 0; }
	echo "registered the APIServices v1beta1.metrics.platform.io and v1beta1.metrics.k8s.io"
	metrics_wait "${k[@]}"
}

# metrics_wait waits until kubectl top nodes shows every node, so that it
# works as soon as the kubeconfig is printed: the nodes register, then
# the first rates take two scrapes, METRIC_RESOLUTION apart. It gives up
# after two minutes.
metrics_wait() {
	echo "waiting for the first metrics of the $NODES nodes (two scrapes, ${METRIC_RESOLUTION:-15s} apart) ..."
	local i
	for i in $(seq 1 240); do
		if [ "$("$@" top nodes --no-headers 2>/dev/null | grep -c .)" -eq "$NODES" ]; then
			echo "kubectl top nodes works"
			return 0
		fi
		sleep 0.5
	done
	echo "no metrics for every node after two minutes; see $LOCAL/logs/metrics-server.log and $LOCAL/logs/simnode.log"
}

CLUSTER_CIDR=${CLUSTER_CIDR:-10.0.0.0/8}
daemon scheduler --secure-port "${SCHEDULER_PORT:-10259}" --port "${SCHEDULER_INSECURE_PORT:-10251}"
# Each loop of the controller manager runs on its own service account.
daemon controller-manager --secure-port "${CONTROLLER_MANAGER_PORT:-10257}" --allocate-node-cidrs --cluster-cidr "$CLUSTER_CIDR" \
	--use-service-account-credentials --root-ca-file "$LOCAL/certs/ca.crt"

# The cloud controller manager starts the simulated cloud (test/simcloud)
# as its provider plugin; the simulated nodes then register for it.
cloud_flags=()
if [ -x "$BIN/platform-cloud-controller-manager" ] && [ -x "$BIN/platform-simcloud" ]; then
	cat > "$LOCAL/simcloud.yaml" <<CC
kubeconfig: $LOCAL/cloud-controller-manager.kubeconfig
instances: $NODES
controlAddress: 127.0.0.1:${SIMCLOUD_CONTROL_PORT:-10270}
stateFile: $LOCAL/simcloud-state.json
internalIP: 127.0.0.1
CC
	daemon cloud-controller-manager --secure-port "${CLOUD_CONTROLLER_MANAGER_PORT:-10258}" --cloud-provider simcloud \
		--cloud-provider-binary "$BIN/platform-simcloud" --cloud-config "$LOCAL/simcloud.yaml" \
		--allocate-node-cidrs --cluster-cidr "$CLUSTER_CIDR"
	cloud_flags=(--cloud-provider external)
fi

# Simulated nodes run the pods the scheduler binds (test/simnode), each as
# system:node:<name> with its certificate from $LOCAL/certs/nodes.
if [ -x "$BIN/platform-simnode" ]; then
	"$BIN/platform-simnode" --kubeconfig "$LOCAL/simnode.kubeconfig" --nodes "$NODES" \
		--name-prefix "${NODE_PREFIX:-simnode-}" --node-credentials-dir "$LOCAL/certs/nodes" "${cloud_flags[@]}" \
		--resource-metrics-address 127.0.0.1 \
		>"$LOCAL/logs/simnode.log" 2>&1 &
	pids+=($!)
	echo "started $NODES simulated nodes (log: $LOCAL/logs/simnode.log)"
fi

# The metrics server scrapes each simulated node's /metrics/resource (on a
# port of its own, published in the node's status) and serves the resource
# metrics API; the API server aggregates it once it serves APIServices.
if [ -x "$BIN/platform-metrics-server" ] && [ -x "$BIN/platform-simnode" ]; then
	metrics_up
fi

cat <<MSG

The control plane is up. Logs are in $LOCAL/logs/. Use it with:

  export KUBECONFIG=$KUBECONFIG_OUT
  kubectl get nodes -o wide
  kubectl expose deployment <name> --type=LoadBalancer --port 80   # gets a 127.77.x.y address
  kubectl apply -f deploy/examples/
  kubectl get pods -A -w
  kubectl top nodes; kubectl top pods -A --containers   # the resource metrics API (docs/metrics-server.md)

Aggregated API servers (APIServices, docs/aggregation.md) are reached with
the front-proxy client certificate $LOCAL/certs/front-proxy-client.crt;
give them the front-proxy CA to verify it:
  $LOCAL/certs/front-proxy-ca.crt
(also published in the ConfigMap platform-system/extension-apiserver-authentication).

Press Ctrl-C to stop.
MSG
wait "${pids[0]}"
