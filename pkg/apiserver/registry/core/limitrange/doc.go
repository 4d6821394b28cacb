// Package limitrange is the registry row of core/v1 limitranges and its
// validation: quantities valid, and per resource min <= default request
// <= default limit <= max, with a limit-to-request ratio of at least 1.
// Applying the ranges to pods is the LimitRanger admission plugin's job.
package limitrange
