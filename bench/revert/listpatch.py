p='gate/gate.go'
s=open(p).read()
old='''		planned, res.Identity, notes = mutants(jobs, sources, ch, toks, bases, opts)
		res.Notes = append(res.Notes, notes...)
'''
new=old+'''		if os.Getenv("ORACLE_TRIAL_LIST") != "" {
			for _, m := range planned {
				if m.edit.Operator == "Revert" {
					src := sources[m.edit.Path]
					fmt.Fprintf(os.Stderr, "LIST %s %d %q => %q\\n", m.id(), m.edit.Original.Start.Line, string(src[m.edit.Original.Start.Offset:m.edit.Original.End.Offset]), m.edit.Replacement)
				}
			}
			fmt.Fprintf(os.Stderr, "LISTTOTAL %d\\n", len(planned))
			os.Exit(0)
		}
'''
s=s.replace(old,new)
if '\n\t"os"\n' not in s:
    s=s.replace('import (\n','import (\n\t"os"\n',1)
open(p,'w').write(s)
