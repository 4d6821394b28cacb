// Package deployment is the deployment loop: it keeps one ReplicaSet per
// pod-template hash for each Deployment, rolls template changes out with
// the RollingUpdate or Recreate strategy, scales proportionally during a
// rollout, honours pause, rollback and revisionHistoryLimit, and reports
// the Progressing and Available conditions and replica counts in status.
package deployment
