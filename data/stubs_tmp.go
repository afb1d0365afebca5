package data

import "io"

var alibabaTaskColumns = []string{"task_name", "instance_num", "job_name", "task_type", "status", "start_time", "end_time", "plan_cpu", "plan_mem"}

func alibabaStatus(s string) bool { return false }

func (s *logState) readGooglePath(p string, dir bool) error              { return nil }
func (s *logState) readGoogleCollections(r io.Reader, file string) error { return nil }
func (s *logState) readAlibabaPath(p string, dir bool) error             { return nil }
func (s *logState) readAlibabaTasks(r io.Reader, file string) error      { return nil }
