import { INLINE, TOASTS, type School } from "@quad/contracts";
import { useEffect, useId, useState } from "react";
import { Button } from "../../../../components";
import { notify } from "../../../../lib/toast";
import { trpc } from "../../../../lib/trpc";
import { FieldError, fieldStyles } from "../../ui/fields";
import type { StepProps } from "./step-props";
import styles from "./steps.module.css";
import { usePick } from "./use-pick";

/** Offer a search box once the list is longer than a phone screen. */
const SEARCH_FROM = 8;

function matches(school: School, query: string): boolean {
  const plain = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, " ")
      .trim();
  return plain(school.schoolName).includes(plain(query));
}

export function UniversityStep({ values, errors, onChange, onPick, disabled }: StepProps) {
  const { group, picked } = usePick(onPick);
  const schools = trpc.schools.list.useQuery(undefined, { staleTime: 5 * 60_000 });
  const [query, setQuery] = useState("");
  const errorId = useId();

  useEffect(() => {
    if (schools.isError) notify.error(TOASTS.fetchSchoolsFailed);
  }, [schools.isError]);

  const list = schools.data ?? [];
  const shown = query.trim() ? list.filter((school) => matches(school, query)) : list;

  return (
    <fieldset
      className={fieldStyles.field}
      aria-describedby={errors.university ? errorId : undefined}
      disabled={disabled}
      {...group}
    >
      <legend className={fieldStyles.label}>University</legend>

      {list.length > SEARCH_FROM && (
        <div className={`${fieldStyles.control} ${styles.search}`}>
          <svg
            width="20"
            height="20"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.2"
            aria-hidden="true"
          >
            <circle cx="11" cy="11" r="7" />
            <path d="m20 20-3.5-3.5" strokeLinecap="round" />
          </svg>
          <input
            type="search"
            className={`${fieldStyles.input} ${styles.searchInput}`}
            placeholder="Search schools"
            aria-label="Search schools"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            autoComplete="off"
            enterKeyHint="search"
          />
        </div>
      )}

      {errors.university && <FieldError id={errorId}>{errors.university}</FieldError>}

      {schools.isPending && (
        <div className={styles.optionList} aria-busy="true">
          <span className="visually-hidden">Loading universities</span>
          {[0, 1, 2, 3, 4].map((i) => (
            <div key={i} className={styles.skeleton} />
          ))}
        </div>
      )}

      {schools.isError && (
        <div className={styles.loadError}>
          <FieldError>{INLINE.fetchUniversitiesFailed}</FieldError>
          <Button variant="secondary" onClick={() => void schools.refetch()} loading={schools.isFetching}>
            Try again
          </Button>
        </div>
      )}

      {schools.isSuccess && (
        <div className={styles.optionList}>
          {shown.map((school) => (
            <label key={school.id} className={styles.option}>
              <input
                type="radio"
                name="university"
                value={school.id}
                className={styles.radioInput}
                checked={values.university === school.id}
                onChange={() => onChange({ university: school.id })}
                onClick={() => picked({ university: school.id })}
              />
              <img className={styles.schoolIcon} src={school.icon} alt="" width={40} height={40} loading="lazy" />
              <span className={styles.optionText}>{school.schoolName}</span>
              <span className={styles.radioMark} aria-hidden="true" />
            </label>
          ))}
          {shown.length === 0 && <p className={styles.empty}>No schools match &ldquo;{query.trim()}&rdquo;.</p>}
        </div>
      )}
    </fieldset>
  );
}
