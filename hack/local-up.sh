#!/usr/bin/env bash
# Starts the local control plane for development: the API server with an
# embedded etcd (data in _output/local), and every other daemon that is built.
# Writes an admin kubeconfig and prints how to use it. Ctrl-C stops all.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=$PWD/_output/bin
mkdir -p "${LOCAL_DIR:-_output/local}"
LOCAL=$(cd "${LOCAL_DIR:-_output/local}" && pwd)
PORT=${API_PORT:-6443}
KUBECONFIG_OUT=$LOCAL/admin.kubeconfig
mkdir -p "$LOCAL/logs"
go run ./hack/devcerts -dir "$LOCAL/certs"

pids=()
cleanup() {
	trap - INT TERM EXIT
	echo; echo "stopping..."
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap cleanup INT TERM EXIT

"$BIN/platform-apiserver" \
	--data-dir "$LOCAL/etcd" \
	--tls-cert-file "$LOCAL/certs/apiserver.crt" \
	--tls-private-key-file "$LOCAL/certs/apiserver.key" \
	--bind-address 127.0.0.1 \
	--secure-port "$PORT" \
	>"$LOCAL/logs/apiserver.log" 2>&1 &
pids+=($!)

echo "waiting for the API server on https://127.0.0.1:$PORT ..."
for i in $(seq 1 120); do
	if curl -sk "https://127.0.0.1:$PORT/readyz" 2>/dev/null | grep -q ok; then break; fi
	if ! kill -0 "${pids[0]}" 2>/dev/null; then
		echo "the API server exited; its log:"; tail -n 30 "$LOCAL/logs/apiserver.log"; exit 1
	fi
	sleep 0.5
done

b64() { base64 -w0 < "$1"; }
cat > "$KUBECONFIG_OUT" <<KC
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: https://127.0.0.1:$PORT
    certificate-authority-data: $(b64 "$LOCAL/certs/ca.crt")
users:
- name: admin
  user:
    client-certificate-data: $(b64 "$LOCAL/certs/admin.crt")
    client-key-data: $(b64 "$LOCAL/certs/admin.key")
contexts:
- name: local
  context:
    cluster: local
    user: admin
current-context: local
KC

cat <<MSG

The control plane is up. Logs are in $LOCAL/logs/. Use it with:

  export KUBECONFIG=$KUBECONFIG_OUT
  kubectl get namespaces

Press Ctrl-C to stop.
MSG
wait "${pids[0]}"
