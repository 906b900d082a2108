import type { MeUser } from "@quad/contracts";
import { useState } from "react";
import { Button, Icon } from "../../components";
import { PhotoDialog } from "./photo-dialog";
import styles from "./profile.module.css";

/** The current photo with a way to change it, and the school it belongs to. */
export function PhotoSection({ user }: { user: MeUser }) {
  const [changing, setChanging] = useState(false);
  return (
    <div className={styles.identity}>
      <div className={styles.avatar}>
        {user.profileImage ? (
          <img src={user.profileImage} alt="Your profile photo" />
        ) : (
          <Icon name="person" size={40} />
        )}
      </div>
      <div className={styles.identityText}>
        <p className={styles.identityName}>{user.firstName}</p>
        <p className={styles.identityMeta}>
          {[user.schoolName, user.graduationYear && `Class of ${user.graduationYear}`].filter(Boolean).join(" · ")}
        </p>
        <Button
          variant="secondary"
          className={styles.changePhoto}
          icon={<Icon name="camera" size={18} />}
          onClick={() => setChanging(true)}
        >
          Change photo
        </Button>
      </div>
      {changing && <PhotoDialog onClose={() => setChanging(false)} />}
    </div>
  );
}
